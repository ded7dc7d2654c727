import { describe, expect, it } from 'vitest';
import { createUploadLedger } from './createUploadLedger.js';

describe('createUploadLedger', () => {
  it('an upload sees what the key’s other uploads forward after it opened, and what they had pending before', () => {
    const ledger = createUploadLedger();
    const first = ledger.open('k');
    first.add(300);
    const second = ledger.open('k');
    expect(second.pendingAtOpen).toBe(300);
    expect(second.forwardedSinceOpen()).toBe(0);
    first.add(200);
    second.add(50);
    expect(second.forwardedSinceOpen()).toBe(250);
    expect(first.forwardedSinceOpen()).toBe(550);
    expect(ledger.pending('k')).toBe(550);
    // recorded: no longer pending, but an upload that saw it forwarded keeps counting it
    first.close();
    expect(ledger.pending('k')).toBe(50);
    expect(second.forwardedSinceOpen()).toBe(250);
    second.close();
    second.close();
    expect(ledger.pending('k')).toBe(0);
  });

  it('keys are apart, and a key’s entry goes with its last upload', () => {
    const ledger = createUploadLedger();
    const a = ledger.open('a');
    const b = ledger.open('b');
    a.add(10);
    expect(b.forwardedSinceOpen()).toBe(0);
    expect(ledger.pending('b')).toBe(0);
    a.close();
    b.close();
    const again = ledger.open('a');
    expect(again.pendingAtOpen).toBe(0);
    expect(again.forwardedSinceOpen()).toBe(0);
  });
});
