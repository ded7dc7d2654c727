import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/GatewayError.js';
import { createKeyGate, IDLE_SLOTS_KEPT, KeyGateFullError } from './createKeyGate.js';

/** Lets every already-settled promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Tracks when a promise settles, without awaiting it. */
function watch<T>(p: Promise<T>) {
  const state: { done: boolean; value?: T; error?: unknown } = { done: false };
  p.then(
    (value) => {
      state.done = true;
      state.value = value;
    },
    (error: unknown) => {
      state.done = true;
      state.error = error;
    },
  );
  return state;
}

describe('createKeyGate', () => {
  it('lets maxConcurrent in at once and queues the rest FIFO', async () => {
    const gate = createKeyGate({ maxConcurrent: 2, maxQueued: 5 });
    const r1 = await gate.acquire('k');
    const r2 = await gate.acquire('k');
    const order: number[] = [];
    const waiting = [3, 4, 5].map((n) =>
      gate.acquire('k').then((release) => {
        order.push(n);
        return release;
      }),
    );
    await settle();
    expect(order).toEqual([]);
    r1();
    await settle();
    expect(order).toEqual([3]);
    r2();
    await settle();
    expect(order).toEqual([3, 4]);
    const r3 = await waiting[0]!;
    r3();
    await settle();
    expect(order).toEqual([3, 4, 5]);
    (await waiting[1]!)();
    (await waiting[2]!)();
    expect(gate.size).toBe(0);
  });

  it('refuses with KeyGateFullError when maxQueued are already waiting', async () => {
    const gate = createKeyGate({ maxConcurrent: 1, maxQueued: 2 });
    const release = await gate.acquire('k');
    const w1 = watch(gate.acquire('k'));
    const w2 = watch(gate.acquire('k'));
    const refused = gate.acquire('k');
    await expect(refused).rejects.toBeInstanceOf(KeyGateFullError);
    await expect(refused).rejects.toBeInstanceOf(GatewayError);
    await expect(refused).rejects.toMatchObject({
      message: 'too many concurrent requests for this API key: at most 1 in flight and 2 waiting',
      kind: 'RATE_LIMITED',
      httpStatus: 429,
    });
    // The refusal took no place: the two waiters still get theirs, in order.
    release();
    await settle();
    expect(w1.done).toBe(true);
    expect(w2.done).toBe(false);
    (w1.value as () => void)();
    await settle();
    expect(w2.done).toBe(true);
    (w2.value as () => void)();
    expect(gate.size).toBe(0);
  });

  it('keeps keys independent', async () => {
    const gate = createKeyGate({ maxConcurrent: 1, maxQueued: 0 });
    const a = await gate.acquire('a');
    await expect(gate.acquire('a')).rejects.toBeInstanceOf(KeyGateFullError);
    const b = await gate.acquire('b');
    expect(gate.size).toBe(2);
    a();
    b();
    expect(gate.size).toBe(0);
  });

  it('removes an aborted waiter from the queue and rejects it with the abort reason', async () => {
    const gate = createKeyGate({ maxConcurrent: 1, maxQueued: 1 });
    const release = await gate.acquire('k');
    const controller = new AbortController();
    const aborted = gate.acquire('k', controller.signal);
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    // Its queue place is free again, and release does not hand the slot to it.
    const next = watch(gate.acquire('k'));
    release();
    await settle();
    expect(next.done).toBe(true);
    expect(next.error).toBeUndefined();
    (next.value as () => void)();
    expect(gate.size).toBe(0);
    // An already aborted signal is refused at once, without taking a place.
    await expect(gate.acquire('k', AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(gate.size).toBe(0);
  });

  it('ignores an abort after the place was granted', async () => {
    const gate = createKeyGate({ maxConcurrent: 1, maxQueued: 1 });
    const first = await gate.acquire('k');
    const controller = new AbortController();
    const second = gate.acquire('k', controller.signal);
    first();
    const release = await second;
    controller.abort();
    await settle();
    expect(gate.size).toBe(1);
    release();
    expect(gate.size).toBe(0);
  });

  it('makes release idempotent', async () => {
    const gate = createKeyGate({ maxConcurrent: 1, maxQueued: 1 });
    const first = await gate.acquire('k');
    const second = watch(gate.acquire('k'));
    first();
    first();
    await settle();
    expect(second.done).toBe(true);
    // A third acquire must wait: the double release did not free a second place.
    const third = watch(gate.acquire('k'));
    first();
    await settle();
    expect(third.done).toBe(false);
    (second.value as () => void)();
    await settle();
    expect(third.done).toBe(true);
    (third.value as () => void)();
    (third.value as () => void)();
    expect(gate.size).toBe(0);
  });

  it('keeps a bounded number of idle keys: ten thousand keys come and go, at most IDLE_SLOTS_KEPT stay', async () => {
    const gate = createKeyGate({ maxConcurrent: 2, maxQueued: 2 });
    let most = 0;
    for (let i = 0; i < 10_000; i++) {
      const release = i % 2 === 0 ? await gate.acquire(`key-${i}`) : gate.tryAcquire(`key-${i}`)!;
      release();
      most = Math.max(most, gate.held);
    }
    expect(gate.size).toBe(0);
    expect(most).toBe(IDLE_SLOTS_KEPT);
    // a busy key's state is never dropped with the idle ones
    const busy = gate.tryAcquire('busy')!;
    for (let i = 0; i < 2 * IDLE_SLOTS_KEPT; i++) gate.tryAcquire(`more-${i}`)!();
    expect(gate.size).toBe(1);
    // it still counts its place: one more fits under the cap of 2, a third does not
    const second = gate.tryAcquire('busy')!;
    expect(gate.tryAcquire('busy')).toBeUndefined();
    second();
    busy();
    expect(gate.size).toBe(0);
  });

  it("keeps an idle key's state for its next request (one key's requests one after another hold one state)", () => {
    const gate = createKeyGate({ maxConcurrent: 1, maxQueued: 1 });
    const first = gate.tryAcquire('k')!;
    first();
    expect(gate.held).toBe(1);
    for (let i = 0; i < 100; i++) gate.tryAcquire('k')!();
    expect(gate.held).toBe(1);
    expect(gate.size).toBe(0);
  });

  it('validates its options', () => {
    expect(() => createKeyGate({ maxConcurrent: 0, maxQueued: 1 })).toThrow(RangeError);
    expect(() => createKeyGate({ maxConcurrent: 1, maxQueued: -1 })).toThrow(RangeError);
  });

  it('tryAcquire takes a place synchronously under the cap, and never jumps the queue', async () => {
    const gate = createKeyGate({ maxConcurrent: 2, maxQueued: 4 });
    const a = gate.tryAcquire('k')!;
    const b = gate.tryAcquire('k')!;
    expect(typeof a).toBe('function');
    expect(gate.tryAcquire('k')).toBeUndefined(); // at the cap
    const waiting = gate.acquire('k');
    a(); // the waiter gets the place
    const c = await waiting;
    expect(gate.tryAcquire('k')).toBeUndefined();
    b();
    expect(gate.tryAcquire('other')).toBeTypeOf('function');
    const d = gate.tryAcquire('k')!; // b's place is free and nobody waits
    c();
    d();
    a(); // idempotent
  });
});
