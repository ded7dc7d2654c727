import type { EstimateFeeResponseOverhead, ResourceBoundsBN } from 'starknet';
import { SnapErrorCode, snapError } from './errors';

/** The estimate_fee shape the wallet methods return; amounts are decimal strings in the fee unit's smallest unit. */
export interface FeeEstimateResult {
  /** The node's estimate of the total fee. */
  overall_fee: string;
  /** Price of one L2 gas unit. */
  gas_price: string;
  /** Gas units consumed (L1 + L1 data + L2). */
  gas_usage: string;
  /** Fee unit: "FRI" (STRK) for v3 transactions. */
  unit: string;
  /** The largest fee the snap would authorise for this transaction (the resource bounds' total). */
  suggestedMaxFee: string;
}

/** Safety margin on each estimated amount and price, in per mille (500 = +50 %). */
export const FEE_MARGIN_PER_MILLE = 500n;

type Raw = { amount: bigint; price: bigint };
type Resources = { l1_gas: Raw; l2_gas: Raw; l1_data_gas: Raw };

function rawOf(est: EstimateFeeResponseOverhead): Resources {
  // The provider is built without overhead, so bounds here are the node's consumed amounts and current prices.
  const rb = est.resourceBounds as ResourceBoundsBN;
  const pick = (k: 'l1_gas' | 'l2_gas' | 'l1_data_gas'): Raw => ({
    amount: BigInt(rb[k].max_amount),
    price: BigInt(rb[k].max_price_per_unit),
  });
  return { l1_gas: pick('l1_gas'), l2_gas: pick('l2_gas'), l1_data_gas: pick('l1_data_gas') };
}

function sumResources(list: readonly EstimateFeeResponseOverhead[]): Resources {
  const out: Resources = {
    l1_gas: { amount: 0n, price: 0n },
    l2_gas: { amount: 0n, price: 0n },
    l1_data_gas: { amount: 0n, price: 0n },
  };
  for (const est of list) {
    const r = rawOf(est);
    for (const k of ['l1_gas', 'l2_gas', 'l1_data_gas'] as const) {
      out[k].amount += r[k].amount;
      if (r[k].price > out[k].price) out[k].price = r[k].price;
    }
  }
  return out;
}

const withMargin = (v: bigint, perMille: bigint) => v + (v * perMille) / 1000n;

function bounds(r: Resources, perMille: bigint): ResourceBoundsBN {
  const b = (x: Raw) => ({
    max_amount: withMargin(x.amount, perMille),
    max_price_per_unit: withMargin(x.price, perMille),
  });
  return { l1_gas: b(r.l1_gas), l2_gas: b(r.l2_gas), l1_data_gas: b(r.l1_data_gas) } as ResourceBoundsBN;
}

/**
 * Total fee a set of resource bounds authorises: the sum of max_amount x max_price_per_unit.
 *
 * @param rb - The bounds.
 * @returns The total.
 */
export function boundsTotal(rb: ResourceBoundsBN): bigint {
  let total = 0n;
  for (const k of ['l1_gas', 'l2_gas', 'l1_data_gas'] as const) {
    const x = (rb as Record<string, { max_amount: bigint; max_price_per_unit: bigint }>)[k];
    if (x) total += BigInt(x.max_amount) * BigInt(x.max_price_per_unit);
  }
  return total;
}

/**
 * Turns raw estimates (one per transaction, e.g. a deploy then an invoke) into the estimate_fee shape.
 *
 * @param list - The node's estimates, without overhead.
 * @returns The shape, with the margin-added bounds as suggestedMaxFee.
 * @example
 * ```ts
 * toFeeEstimateResult(await account.estimateInvokeFee(calls, { tip: 0 })).overall_fee; // '87200000000000'
 * ```
 */
export function toFeeEstimateResult(list: readonly EstimateFeeResponseOverhead[]): FeeEstimateResult {
  const r = sumResources(list);
  const overall = list.reduce((s, e) => s + BigInt(e.overall_fee), 0n);
  return {
    overall_fee: overall.toString(),
    gas_price: r.l2_gas.price.toString(),
    gas_usage: (r.l1_gas.amount + r.l2_gas.amount + r.l1_data_gas.amount).toString(),
    unit: list[0]?.unit ?? 'FRI',
    suggestedMaxFee: list.reduce((s, e) => s + boundsTotal(bounds(rawOf(e), FEE_MARGIN_PER_MILLE)), 0n).toString(),
  };
}

/**
 * Resource bounds for one transaction from its raw estimate: the estimate plus {@link FEE_MARGIN_PER_MILLE} on
 * amounts and prices, lowered (margin shrunk towards zero) so the total stays within `maxFee` when given.
 *
 * @param est - The node's estimate, without overhead.
 * @param maxFee - The caller's cap on the total fee, if any.
 * @returns The bounds to sign with.
 * @throws MaxFeeTooLow when even the bare estimate exceeds `maxFee`.
 */
export function resourceBoundsFor(est: EstimateFeeResponseOverhead, maxFee?: bigint): ResourceBoundsBN {
  const r = rawOf(est);
  const full = bounds(r, FEE_MARGIN_PER_MILLE);
  if (maxFee === undefined || boundsTotal(full) <= maxFee) return full;
  const bare = bounds(r, 0n);
  if (boundsTotal(bare) > maxFee) {
    throw snapError(
      SnapErrorCode.MaxFeeTooLow,
      `maxFee ${maxFee} is below the estimated fee ${boundsTotal(bare)}; raise maxFee or omit it to use the estimate`,
      { estimatedFee: boundsTotal(bare).toString() },
    );
  }
  let lo = 0n;
  let hi = FEE_MARGIN_PER_MILLE;
  while (lo < hi) {
    const mid = (lo + hi + 1n) / 2n;
    if (boundsTotal(bounds(r, mid)) <= maxFee) lo = mid;
    else hi = mid - 1n;
  }
  return bounds(r, lo);
}
