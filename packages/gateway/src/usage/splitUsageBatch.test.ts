import { expect, it } from 'vitest';
import { splitUsageBatch } from './splitUsageBatch.js';
import { aggregate, usageEvent } from './usageStoreContract.js';

const T0 = Date.UTC(2024, 0, 1);

it('cuts a batch into consecutive parts of at most N rows, in order, each with keepRecentPerKey', () => {
  const aggregates = Array.from({ length: 5 }, (_, i) => aggregate({ minute: T0, key: `a${i}` }));
  const errors = [{ minute: T0, key: 'e', accountId: 'x', network: 'n', status: 500, errorCode: null, count: 1 }];
  const recent = Array.from({ length: 4 }, (_, i) => usageEvent({ key: `r${i}`, at: T0 + i }));
  const batch = { aggregates, errors, recent, keepRecentPerKey: 7 };
  const parts = splitUsageBatch(batch, 4);
  expect(parts.map((p) => [p.aggregates.length, p.errors.length, p.recent.length])).toEqual([
    [4, 0, 0],
    [1, 1, 2],
    [0, 0, 2],
  ]);
  expect(parts.every((p) => p.keepRecentPerKey === 7)).toBe(true);
  expect(parts.flatMap((p) => p.aggregates)).toEqual(aggregates);
  expect(parts.flatMap((p) => p.recent)).toEqual(recent);
  // a batch that fits is itself
  expect(splitUsageBatch(batch, 10)).toEqual([batch]);
});
