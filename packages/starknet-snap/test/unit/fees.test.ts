import type { EstimateFeeResponseOverhead } from 'starknet';
import { boundsTotal, FEE_MARGIN_PER_MILLE, resourceBoundsFor, toFeeEstimateResult } from '../../src/lib/fees';

const est = (l2: bigint, l2price: bigint, l1d: bigint, l1dprice: bigint): EstimateFeeResponseOverhead => ({
  resourceBounds: {
    l1_gas: { max_amount: 0n, max_price_per_unit: 10n },
    l2_gas: { max_amount: l2, max_price_per_unit: l2price },
    l1_data_gas: { max_amount: l1d, max_price_per_unit: l1dprice },
  },
  overall_fee: l2 * l2price + l1d * l1dprice,
  unit: 'FRI',
});

describe('fee estimate shape', () => {
  it('reports decimal strings and a suggested max fee with the margin', () => {
    const r = toFeeEstimateResult([est(1000n, 3n, 100n, 2n)]);
    expect(r).toEqual({
      overall_fee: '3200',
      gas_price: '3',
      gas_usage: '1100',
      unit: 'FRI',
      suggestedMaxFee: String(1500n * 4n + 150n * 3n),
    });
  });
  it('sums a deploy and an invoke', () => {
    const r = toFeeEstimateResult([est(1000n, 3n, 100n, 2n), est(500n, 3n, 0n, 2n)]);
    expect(r.overall_fee).toBe('4700');
    expect(r.gas_usage).toBe('1600');
  });
});

describe('resource bounds under a max fee', () => {
  const e = est(1_000_000n, 1_000_000_000n, 200n, 1_000_000_000n);
  it('adds the margin when no cap is given', () => {
    const rb = resourceBoundsFor(e);
    expect(rb.l2_gas.max_amount).toBe(1_000_000n + (1_000_000n * FEE_MARGIN_PER_MILLE) / 1000n);
  });
  it('keeps the total within maxFee by shrinking the margin', () => {
    const cap = (BigInt(e.overall_fee) * 13n) / 10n;
    const rb = resourceBoundsFor(e, cap);
    expect(boundsTotal(rb)).toBeLessThanOrEqual(cap);
    expect(boundsTotal(rb)).toBeGreaterThanOrEqual(BigInt(e.overall_fee));
  });
  it('refuses a maxFee below the estimate, saying by how much', () => {
    expect(() => resourceBoundsFor(e, 10n)).toThrow(/maxFee 10 is below the estimated fee/);
  });
});
