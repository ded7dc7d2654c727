import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyLimits, Limiter } from './Limiter.js';

/** 2030-01-15T12:00:00.000Z: midday, at the start of a 1-second bucket. */
const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
const NEXT_MIDNIGHT = '2030-01-16T00:00:00.000Z';
const DAY_MS = 86_400_000;
const ROOMY_DAY = 1_000_000;

/**
 * The behaviour every {@link Limiter} must have, as a vitest suite: `open` returns a fresh
 * limiter for each test (closed after it). Time is injected per call, so the suite is
 * deterministic; keys are unique per test, so implementations sharing storage don't collide.
 *
 * @example
 * limiterContract('createMemoryLimiter', async () => createMemoryLimiter());
 */
export function limiterContract(name: string, open: () => Promise<Limiter>): void {
  describe(`Limiter contract: ${name}`, () => {
    let limiter: Limiter;
    let key: string;
    beforeEach(async () => {
      limiter = await open();
      key = `k-${randomUUID()}`;
    });
    afterEach(async () => {
      await limiter.close();
    });

    const perSecond = (creditsPerSecond: number, creditsPerDay = ROOMY_DAY): KeyLimits => ({
      creditsPerSecond,
      creditsPerDay,
    });

    async function chargeMany(n: number, limits: KeyLimits, now: number): Promise<number> {
      let admitted = 0;
      for (let i = 0; i < n; i++) if ((await limiter.charge(key, 1, limits, now)).ok) admitted++;
      return admitted;
    }

    it('admits charges under the limit and counts them for the day', async () => {
      expect(await chargeMany(10, perSecond(10), T0 + 100)).toBe(10);
      expect(await limiter.usedToday(key, T0 + 200)).toBe(10);
      expect(await limiter.usedToday(`unknown-${key}`, T0)).toBe(0);
    });

    it('refuses once the window holds the rate, with the current rate and a backoff, charging nothing', async () => {
      expect(await chargeMany(10, perSecond(10), T0)).toBe(10);
      expect(await limiter.charge(key, 1, perSecond(10), T0 + 300)).toEqual({
        ok: false,
        kind: 'rate',
        currentRps: 10,
        allowedRps: 10,
        // The 10 credits must become the previous bucket and decay below 10: just after T0 + 1000.
        backoffSeconds: 0.71,
      });
      expect(await limiter.usedToday(key, T0 + 300)).toBe(10);
      // Still refused at the exact moment the estimate equals the limit...
      expect((await limiter.charge(key, 1, perSecond(10), T0 + 1000)).ok).toBe(false);
      // ...and admitted once the backoff has passed.
      expect((await limiter.charge(key, 1, perSecond(10), T0 + 1010)).ok).toBe(true);
    });

    it('slides the window: the previous second weighs by its overlap, then stops counting', async () => {
      expect(await chargeMany(10, perSecond(10), T0 + 900)).toBe(10);
      // Half a second into the next bucket the 10 weigh 5: five more fit, the sixth does not.
      expect(await chargeMany(5, perSecond(10), T0 + 1500)).toBe(5);
      const refusal = await limiter.charge(key, 1, perSecond(10), T0 + 1500);
      expect(refusal).toEqual({ ok: false, kind: 'rate', currentRps: 10, allowedRps: 10, backoffSeconds: 0.05 });
      expect((await limiter.charge(key, 1, perSecond(10), T0 + 1550)).ok).toBe(true);
      // Two buckets later the window is empty again: a full second's allowance fits.
      expect(await chargeMany(11, perSecond(10), T0 + 3000)).toBe(10);
      expect(await limiter.usedToday(key, T0 + 3000)).toBe(26);
    });

    it('admits one charge larger than a second allowance, keeps it counted and backs off until it decays', async () => {
      expect(await limiter.charge(key, 250, perSecond(100), T0)).toEqual({ ok: true });
      // 250 in the current bucket: wait for the bucket to end (500 ms) and for 250 × (1 − f) < 100 (600 ms).
      expect(await limiter.charge(key, 1, perSecond(100), T0 + 500)).toEqual({
        ok: false,
        kind: 'rate',
        currentRps: 250,
        allowedRps: 100,
        backoffSeconds: 1.11,
      });
      const mid = await limiter.charge(key, 1, perSecond(100), T0 + 1200);
      expect(mid).toMatchObject({ ok: false, kind: 'rate', currentRps: 200, backoffSeconds: 0.41 });
      expect((await limiter.charge(key, 1, perSecond(100), T0 + 1600)).ok).toBe(false);
      expect((await limiter.charge(key, 1, perSecond(100), T0 + 1610)).ok).toBe(true);
    });

    it('refuses the daily limit with resetsAt at the next UTC midnight, and resets the next day', async () => {
      const limits = perSecond(1_000_000, 100);
      expect((await limiter.charge(key, 60, limits, T0)).ok).toBe(true);
      expect(await limiter.charge(key, 50, limits, T0 + 5000)).toEqual({
        ok: false,
        kind: 'daily',
        dailyLimit: 100,
        used: 60,
        resetsAt: NEXT_MIDNIGHT,
      });
      expect((await limiter.charge(key, 40, limits, T0 + 6000)).ok).toBe(true);
      const lastMs = Date.parse(NEXT_MIDNIGHT) - 1;
      expect(await limiter.charge(key, 1, limits, lastMs)).toEqual({
        ok: false,
        kind: 'daily',
        dailyLimit: 100,
        used: 100,
        resetsAt: NEXT_MIDNIGHT,
      });
      expect(await limiter.usedToday(key, lastMs)).toBe(100);
      const tomorrow = T0 + DAY_MS;
      expect(await limiter.usedToday(key, tomorrow)).toBe(0);
      expect((await limiter.charge(key, 100, limits, tomorrow)).ok).toBe(true);
      expect(await limiter.charge(key, 1, limits, tomorrow + 5000)).toMatchObject({
        kind: 'daily',
        used: 100,
        resetsAt: '2030-01-17T00:00:00.000Z',
      });
    });

    it('refuses a batch that does not fit the day whole, charging nothing', async () => {
      const limits = perSecond(1_000_000, 100);
      expect((await limiter.charge(key, 90, limits, T0)).ok).toBe(true);
      expect(await limiter.charge(key, 20, limits, T0 + 10)).toMatchObject({ ok: false, kind: 'daily', used: 90 });
      expect(await limiter.usedToday(key, T0 + 10)).toBe(90);
      // Nothing of the refused batch reached the rate window either.
      expect((await limiter.charge(key, 10, perSecond(91, 100), T0 + 20)).ok).toBe(true);
      expect(await limiter.usedToday(key, T0 + 20)).toBe(100);
    });

    it('reports the daily refusal when both limits refuse', async () => {
      expect((await limiter.charge(key, 10, perSecond(10, 10), T0)).ok).toBe(true);
      expect(await limiter.charge(key, 1, perSecond(10, 10), T0 + 1)).toMatchObject({ ok: false, kind: 'daily' });
    });

    it('record() counts toward the day and the rate without ever refusing', async () => {
      await limiter.record(key, 30, T0);
      expect(await limiter.usedToday(key, T0)).toBe(30);
      expect(await limiter.charge(key, 1, perSecond(10), T0 + 1)).toMatchObject({
        ok: false,
        kind: 'rate',
        currentRps: 30,
      });
      await limiter.record(key, 200, T0 + 2);
      expect(await limiter.usedToday(key, T0 + 2)).toBe(230);
      expect(await limiter.charge(key, 1, perSecond(1_000_000, 100), T0 + 10_000)).toMatchObject({
        ok: false,
        kind: 'daily',
        used: 230,
      });
    });

    it('keeps keys independent', async () => {
      const other = `${key}-other`;
      expect(await chargeMany(5, perSecond(5, 5), T0)).toBe(5);
      expect((await limiter.charge(key, 1, perSecond(5, 5), T0)).ok).toBe(false);
      expect((await limiter.charge(other, 5, perSecond(5, 5), T0)).ok).toBe(true);
      expect(await limiter.usedToday(other, T0)).toBe(5);
      expect(await limiter.usedToday(key, T0)).toBe(5);
    });

    it('treats Infinity as no limit', async () => {
      const unlimited = { creditsPerSecond: Number.POSITIVE_INFINITY, creditsPerDay: Number.POSITIVE_INFINITY };
      expect(await chargeMany(300, unlimited, T0)).toBe(300);
      expect((await limiter.charge(key, 1_000_000, unlimited, T0)).ok).toBe(true);
      expect(await limiter.usedToday(key, T0)).toBe(1_000_300);
    });

    it('rejects credits that are negative or not integers', async () => {
      await expect(limiter.charge(key, -1, perSecond(10), T0)).rejects.toThrow(RangeError);
      await expect(limiter.charge(key, 1.5, perSecond(10), T0)).rejects.toThrow(RangeError);
      await expect(limiter.record(key, -3, T0)).rejects.toThrow(RangeError);
      expect(await limiter.usedToday(key, T0)).toBe(0);
    });

    it('counts a charge stamped before the newest bucket into that bucket (a gateway whose clock is behind)', async () => {
      expect(await chargeMany(10, perSecond(10), T0 + 1500)).toBe(10);
      // 600 ms earlier, but the window must not reopen: the 10 credits still count in full.
      expect(await limiter.charge(key, 1, perSecond(10), T0 + 900)).toMatchObject({
        ok: false,
        kind: 'rate',
        currentRps: 10,
      });
      expect(await limiter.usedToday(key, T0 + 1500)).toBe(10);
    });

    it('is atomic: 200 concurrent charges at one instant against 50 credits/s admit exactly 50', async () => {
      const decisions = await Promise.all(
        Array.from({ length: 200 }, () => limiter.charge(key, 1, perSecond(50), T0 + 250)),
      );
      expect(decisions.filter((d) => d.ok)).toHaveLength(50);
      const refusals = decisions.filter((d) => !d.ok);
      expect(refusals).toHaveLength(150);
      for (const r of refusals) expect(r).toMatchObject({ kind: 'rate', currentRps: 50, allowedRps: 50 });
      expect(await limiter.usedToday(key, T0 + 250)).toBe(50);
    });
  });
}
