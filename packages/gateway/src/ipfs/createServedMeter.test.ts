import { describe, expect, it } from 'vitest';
import { createMemoryLimiter } from '../limits/createMemoryLimiter.js';
import { createServedMeter, type ServedLimits, servedBytesKey } from './createServedMeter.js';
import { IpfsCommandError } from './IpfsCommandError.js';

const MiB = 1024 * 1024;
const limits = (over: Partial<ServedLimits> = {}): ServedLimits => ({
  bytesPerRequest: 100 * MiB,
  bytesPerDay: 100 * MiB,
  bytesPerSecond: 100 * MiB,
  creditsPerMiB: 10,
  credits: { creditsPerSecond: 1_000_000, creditsPerDay: 1_000_000 },
  ...over,
});
const signal = new AbortController().signal;

describe('createServedMeter', () => {
  it('charges the bytes exactly under the key’s served-bytes name, and credits per whole MiB', async () => {
    const limiter = createMemoryLimiter();
    const meter = createServedMeter(limiter, 'k', limits(), signal);
    for (let i = 0; i < 40; i++) await meter.take(64 * 1024); // 2.5 MiB
    meter.flush();
    expect(meter.bytes).toBe(40 * 64 * 1024);
    expect(meter.credits).toBe(20);
    expect(await limiter.usedToday(servedBytesKey('k'))).toBe(40 * 64 * 1024);
    expect(await limiter.usedToday('k')).toBe(20);
    expect(meter.stoppedBy).toBeUndefined();
  });

  it('stops at the per-request bound and refuses a declared length over it (400, served-request)', async () => {
    const meter = createServedMeter(createMemoryLimiter(), 'k', limits({ bytesPerRequest: MiB }), signal);
    expect(meter.refuseDeclared(MiB)).toBeUndefined();
    expect(meter.refuseDeclared(Number.NaN)).toBeUndefined();
    await meter.take(MiB - 10);
    await expect(meter.take(11)).rejects.toMatchObject({ status: 400, refusal: 'served-request' });
    await expect(meter.take(1)).rejects.toBeInstanceOf(IpfsCommandError);
    expect(meter.bytes).toBe(MiB - 10);
    const fresh = createServedMeter(createMemoryLimiter(), 'k', limits({ bytesPerRequest: MiB }), signal);
    expect(fresh.refuseDeclared(MiB + 1)).toMatchObject({ status: 400, code: 1 });
  });

  it('stops at the day’s bytes within one batch (429 with Retry-After); the next answer is refused before it starts', async () => {
    const limiter = createMemoryLimiter();
    const day = limits({ bytesPerDay: 100_000 }); // batches of 1,562 bytes
    const meter = createServedMeter(limiter, 'k', day, signal);
    let served = 0;
    let error: unknown;
    for (let i = 0; i < 200 && error === undefined; i++) {
      try {
        await meter.take(1000);
        served += 1000;
      } catch (err) {
        error = err;
      }
    }
    expect(error).toMatchObject({ status: 429, refusal: 'served-daily' });
    expect(Number(meter.stoppedBy?.headers['retry-after'])).toBeGreaterThan(0);
    expect(served).toBeGreaterThanOrEqual(98_000);
    expect(served).toBeLessThanOrEqual(102_000);
    meter.flush();
    expect(await limiter.usedToday(servedBytesKey('k'))).toBeGreaterThanOrEqual(served);
    const next = createServedMeter(limiter, 'k', day, signal);
    expect(await next.refuseBefore()).toMatchObject({ status: 429 });
    // another key has its own day
    expect(await createServedMeter(limiter, 'other', day, signal).refuseBefore()).toBe(undefined);
  });

  it('out of credits mid-answer: stopped with the daily refusal', async () => {
    const limiter = createMemoryLimiter();
    const meter = createServedMeter(
      limiter,
      'k',
      limits({ credits: { creditsPerSecond: 1000, creditsPerDay: 25 } }),
      signal,
    );
    await meter.take(MiB);
    await meter.take(MiB);
    await expect(meter.take(MiB)).rejects.toMatchObject({ status: 429, refusal: 'daily' });
    expect(meter.credits).toBe(20);
  });

  it('paces to bytes per second: past a second’s worth, more waits', async () => {
    const meter = createServedMeter(createMemoryLimiter(), 'k', limits({ bytesPerSecond: 256 * 1024 }), signal);
    const started = Date.now();
    for (let i = 0; i < 12; i++) await meter.take(64 * 1024); // 3 × the pace
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('a client that goes away while paced ends the wait (not recorded as a limit)', async () => {
    const gone = new AbortController();
    const meter = createServedMeter(createMemoryLimiter(), 'k', limits({ bytesPerSecond: 1024 }), gone.signal);
    await meter.take(1024);
    await meter.take(1024);
    const waiting = meter.take(1024);
    setTimeout(() => gone.abort(), 50);
    await expect(waiting).rejects.toMatchObject({ status: 499 });
    expect(meter.stoppedBy).toBeUndefined();
  });
});
