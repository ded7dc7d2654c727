import { describe, expect, it } from 'vitest';
import { createRangeLimits } from './createRangeLimits.js';

describe('createRangeLimits', () => {
  it('the lowest configured limit, what a refusal teaches, forgotten on recovery', () => {
    const limits = createRangeLimits([{ name: 'alchemy', getLogsMaxBlockRange: 2000 }, { name: 'own' }]);
    expect(limits.min()).toBe(2000);
    // a refusal naming its limit
    limits.of('own')!.refused(5000, 1000);
    expect(limits.min()).toBe(1000);
    limits.forget('own');
    expect(limits.min()).toBe(2000);
    // one naming none: half the span it refused
    limits.of('alchemy')!.refused(1500, undefined);
    expect(limits.min()).toBe(750);
    expect(limits.of('nobody')).toBeUndefined();
  });

  it('none known: Infinity (nothing is split)', () => {
    expect(createRangeLimits([{ name: 'a' }, { name: 'b' }]).min()).toBe(Number.POSITIVE_INFINITY);
  });
});
