import { describe, expect, it } from 'vitest';
import { createMemoryLimiter } from './createMemoryLimiter.js';
import { limiterContract } from './limiterContract.js';

limiterContract('createMemoryLimiter', async () => createMemoryLimiter());

describe('createMemoryLimiter', () => {
  it('reads the injected clock when no time is passed', async () => {
    let now = Date.UTC(2030, 0, 15, 23, 59, 59, 500);
    const limiter = createMemoryLimiter({ now: () => now });
    const limits = { creditsPerSecond: 1000, creditsPerDay: 10 };
    expect((await limiter.charge('a', 10, limits)).ok).toBe(true);
    expect(await limiter.charge('a', 1, limits)).toMatchObject({ kind: 'daily', resetsAt: '2030-01-16T00:00:00.000Z' });
    now += 1000;
    expect(await limiter.usedToday('a')).toBe(0);
    expect((await limiter.charge('a', 10, limits)).ok).toBe(true);
  });
});
