import { describe, expect, it } from 'vitest';
import { createCollectionGate } from './createCollectionGate.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createCollectionGate', () => {
  it('a collection waits for the changes in progress; changes that come meanwhile wait for it', async () => {
    const gate = createCollectionGate();
    const events: string[] = [];
    const change = (name: string, ms: number) =>
      gate.shared(async () => {
        events.push(`${name} start`);
        await sleep(ms);
        events.push(`${name} end`);
      });
    const first = change('a', 60);
    await sleep(5);
    const collection = gate.exclusive(async () => {
      events.push('gc start');
      await sleep(30);
      events.push('gc end');
    });
    await sleep(5);
    const late = change('b', 1);
    await Promise.all([first, collection, late]);
    expect(events).toEqual(['a start', 'a end', 'gc start', 'gc end', 'b start', 'b end']);
  });

  it('a change that outlasts maxWaitMs does not hold the collection off', async () => {
    const gate = createCollectionGate();
    let collected = false;
    const slow = gate.shared(() => sleep(300));
    await sleep(5);
    const started = Date.now();
    await gate.exclusive(async () => {
      collected = true;
    }, 50);
    expect(collected).toBe(true);
    expect(Date.now() - started).toBeLessThan(250);
    await slow;
  });
});
