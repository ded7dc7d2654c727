import { invalidParams } from '../../errors.js';
import { parseFelt, toHex } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';

/** devnet_mint: credit fee tokens (FRI = STRK by default, WEI = ETH) through an L1 handler transaction. */
export function devnet_mint(ctx: MethodContext, p: Params): { new_balance: string; unit: string; tx_hash: string } {
  const address = parseFelt(required(p, 'address'), 'address');
  const rawAmount = required(p, 'amount');
  let amount: bigint;
  if (typeof rawAmount === 'number' && Number.isFinite(rawAmount) && rawAmount >= 0)
    amount = BigInt(Math.floor(rawAmount));
  else if (typeof rawAmount === 'string' && /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(rawAmount))
    amount = BigInt(rawAmount); // a u256, which may be above the field prime
  else throw invalidParams(`amount: expected a non-negative integer, got ${JSON.stringify(rawAmount)}`);
  if (amount >= 2n ** 256n) throw invalidParams('amount: must fit in u256');
  const unit = p.unit === undefined ? 'FRI' : p.unit;
  if (unit !== 'FRI' && unit !== 'WEI') throw invalidParams('unit: expected FRI or WEI');
  const r = ctx.node.chain.mint(address, amount, unit);
  return { new_balance: r.newBalance.toString(), unit, tx_hash: toHex(r.txHash) };
}
