import type { KeyLimits } from './Limiter.js';

/**
 * Why `credits` and `limits` cannot be charged, or `undefined` when they can (the common case
 * allocates nothing). Credits are non-negative safe integers (Redis counters are integers);
 * limits are non-negative numbers, `Infinity` meaning unlimited.
 *
 * @example
 * checkCharge(1, { creditsPerSecond: 100, creditsPerDay: 100_000 }); // undefined
 * checkCharge(-1, undefined); // RangeError
 */
export function checkCharge(credits: number, limits: KeyLimits | undefined): RangeError | undefined {
  if (!Number.isSafeInteger(credits) || credits < 0) {
    return new RangeError(`credits must be a non-negative integer, got ${credits}`);
  }
  if (limits !== undefined && !(limits.creditsPerSecond >= 0 && limits.creditsPerDay >= 0)) {
    return new RangeError(
      `limits must be non-negative (Infinity for none), got ${limits.creditsPerSecond}/s and ${limits.creditsPerDay}/day`,
    );
  }
  return undefined;
}
