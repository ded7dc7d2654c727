import { describe, expect, it } from 'vitest';
import { AbortWaiters } from './abortWaiting.js';
import { offAbort } from './offAbort.js';
import { onAbort } from './onAbort.js';

describe('onAbort', () => {
  it('runs every waiting callback once on abort, not the cancelled ones, with one listener on the signal', () => {
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      return add(...args);
    }) as typeof add;
    const ran: number[] = [];
    const cancels = Array.from({ length: 5 }, (_, i) => onAbort(controller.signal, () => ran.push(i)));
    cancels[1]!();
    cancels[3]!();
    controller.abort();
    controller.abort();
    expect(ran).toEqual([0, 2, 4]);
    expect(listeners).toBe(1);
    // cancelling after the abort is harmless
    cancels[0]!();
  });

  it('keeps no callbacks of finished waits: a thousand waits leave the signal with none', () => {
    const controller = new AbortController();
    let ran = 0;
    for (let i = 0; i < 1000; i++) onAbort(controller.signal, () => ran++)();
    controller.abort();
    expect(ran).toBe(0);
  });

  it('does nothing for a signal that has already aborted', () => {
    let ran = 0;
    const cancel = onAbort(AbortSignal.abort(), () => ran++);
    cancel();
    expect(ran).toBe(0);
  });

  it('takes an object with handleEvent, cancelled by offAbort with the same object', () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const a = { handleEvent: () => ran.push('a') };
    const b = { handleEvent: () => ran.push('b') };
    onAbort(controller.signal, a);
    onAbort(controller.signal, b);
    offAbort(controller.signal, a);
    offAbort(new AbortController().signal, b); // another signal's: nothing
    controller.abort();
    expect(ran).toEqual(['b']);
  });
});

describe('AbortWaiters', () => {
  it('runs the first and the concurrent callbacks once each, whichever was cancelled', () => {
    const waiters = new AbortWaiters();
    const ran: string[] = [];
    const cb = (name: string) => ({ handleEvent: () => ran.push(name) });
    const [a, b, c, d] = [cb('a'), cb('b'), cb('c'), cb('d')];
    waiters.add(a);
    waiters.add(b);
    waiters.add(a); // the same callback twice runs once
    waiters.delete(a); // the first gone: its place is free for the next
    waiters.add(c);
    waiters.add(d);
    waiters.delete(b);
    waiters.run();
    waiters.run();
    expect(ran.sort()).toEqual(['c', 'd']);
  });
});
