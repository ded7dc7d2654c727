// The gas and failure protocol every syscall handler shares (internal).
import {
  type ArrayValue,
  type CallGas,
  type LibfuncHandler,
  type RunContext,
  SyscallFailure,
  type Value,
} from '../types.js';
import { big } from './common.js';

/** A short string (up to 31 ASCII characters) as a felt. */
export const shortString = (text: string): bigint => {
  let v = 0n;
  for (let i = 0; i < text.length; i++) v = (v << 8n) | BigInt(text.charCodeAt(i));
  return v;
};

/** 'Out of gas': the error of a syscall whose counter cannot pay it, and the panic of a run out of gas. */
export const OUT_OF_GAS = shortString('Out of gas');

/** An `Array<felt252>` holding a copy of `xs`. */
export const felts = (xs: readonly bigint[]): ArrayValue => ({ data: xs.slice(), start: 0, end: xs.length });

/**
 * A syscall `(gas, system, ...inputs) → ok (gas, system, ...outputs) | err (gas, system, Array<felt252>)`. It first
 * takes `cost` (a number, or computed from the inputs) from the gas counter, or takes the err branch with
 * 'Out of gas' (counter unchanged) when the counter cannot pay, as the Starknet OS does. `run` writes the ok outputs
 * from `out[2]` on; a {@link SyscallFailure} it throws takes the err branch with its data. `gas` is what is left for
 * a nested call: `run` passes it to the host, and what the host reports in `gas.used` is taken too.
 *
 * @example
 * const storageRead = syscall(SYSCALL_GAS.storage_read, (a, out, ctx) => {
 *   out[2] = ctx.storage.get(big(a[3])) ?? 0n;
 * });
 */
export const syscall =
  (
    cost: number | ((a: readonly Value[]) => number),
    run: (a: readonly Value[], out: Value[], ctx: RunContext, gas: CallGas) => void,
  ): LibfuncHandler =>
  (a, out, ctx) => {
    const counter = big(a[0]);
    const due = BigInt(typeof cost === 'number' ? cost : cost(a));
    out[1] = a[1]!;
    if (counter < due) {
      out[0] = counter;
      out[2] = felts([OUT_OF_GAS]);
      return 1;
    }
    const gas: CallGas = { available: counter - due, used: 0n };
    try {
      run(a, out, ctx, gas);
      return 0;
    } catch (e) {
      if (!(e instanceof SyscallFailure)) throw e;
      out[2] = felts(e.data);
      return 1;
    } finally {
      out[0] = gas.available - (gas.used < gas.available ? gas.used : gas.available);
    }
  };
