import type { HandlerFactory, LibfuncHandler } from '../types.js';
import { big } from './common.js';

const withdraw: LibfuncHandler = (a, out, ctx) => {
  out[0] = a[0]!;
  const gas = big(a[1]);
  if (gas >= ctx.withdrawGasCost) {
    out[1] = gas - ctx.withdrawGasCost;
    return 0;
  }
  out[1] = gas;
  return 1;
};

/**
 * Handlers of gas: `withdraw_gas` / `withdraw_gas_all` take the run's fixed `withdrawGasCost` (failure branch when
 * less is left), `redeposit_gas` gives nothing back, coupons are free, `get_builtin_costs` is a unit value, `get_available_gas` reads
 * the counter.
 */
export const GAS_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  withdraw_gas: () => withdraw,
  withdraw_gas_all: () => withdraw,
  redeposit_gas: () => (a, out) => {
    out[0] = a[0]!;
    return 0;
  },
  get_builtin_costs: () => (_a, out) => {
    out[0] = null;
    return 0;
  },
  /** A coupon (`Coupon<f>`, zero-sized) prepays a call of f; in this gas model it costs and refunds nothing. */
  coupon_buy: () => (_a, out) => {
    out[0] = null;
    return 0;
  },
  coupon_refund: () => () => 0,
  get_available_gas: () => (a, out) => {
    out[0] = a[0]!;
    out[1] = a[0]!;
    return 0;
  },
};
