import type { HandlerFactory, LibfuncHandler } from '../types.js';
import { big } from './common.js';

/**
 * `withdraw_gas` called on its own: it succeeds and takes nothing. In a run, `runLoop` does the withdrawal itself
 * (it knows the statements run since the last settlement, see the README's gas model) and never calls this.
 */
const withdraw: LibfuncHandler = (a, out) => {
  out[0] = a[0]!;
  out[1] = big(a[1]);
  return 0;
};

/**
 * Handlers of gas: `withdraw_gas` / `withdraw_gas_all` (settled by `runLoop`), `redeposit_gas` gives nothing back,
 * coupons are free, `get_builtin_costs` is a unit value, `get_available_gas` reads the counter.
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
