import type { GasPrices } from '../../chain/gas.js';
import { invalidParams } from '../../errors.js';
import type { MethodContext, Params } from '../types.js';
import { onlyParams } from './devnetParams.js';

/** The params and which price each sets. */
const FIELDS = {
  gas_price_wei: ['wei', 'l1'],
  data_gas_price_wei: ['wei', 'l1Data'],
  l2_gas_price_wei: ['wei', 'l2'],
  gas_price_fri: ['fri', 'l1'],
  data_gas_price_fri: ['fri', 'l1Data'],
  l2_gas_price_fri: ['fri', 'l2'],
} as const;

/** A price: a positive integer below 2^128 (a JSON number, a decimal or a 0x string). */
function price(v: unknown, name: string): bigint {
  let n: bigint | undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === 'string' && /^(0x[0-9a-fA-F]{1,32}|[0-9]{1,39})$/.test(v)) n = BigInt(v);
  if (n === undefined || n <= 0n || n >= 2n ** 128n) {
    throw invalidParams(`${name}: expected a positive integer below 2^128, got ${JSON.stringify(v)}`);
  }
  return n;
}

/** A price as the answer shows it: a JSON number when exact, else a decimal string. */
const shown = (n: bigint): number | string => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString());

/**
 * devnet_setGasPrice: sets any of the six gas prices (the rest are kept) for the blocks after the one being built,
 * as starknet-devnet's; `generate_block: true` mines that block now, so the new prices apply to what follows at
 * once (estimates, the pre-confirmed header). Answers the six prices the next blocks get.
 */
export function devnet_setGasPrice(ctx: MethodContext, p: Params): Record<string, number | string> {
  onlyParams(p, [...Object.keys(FIELDS), 'generate_block']);
  if (p.generate_block !== undefined && typeof p.generate_block !== 'boolean') {
    throw invalidParams('generate_block: expected a boolean');
  }
  const chain = ctx.node.chain;
  const current = chain.nextGasPrices;
  const next: GasPrices = { wei: { ...current.wei }, fri: { ...current.fri } };
  for (const [name, [unit, kind]] of Object.entries(FIELDS)) {
    if (p[name] !== undefined) next[unit][kind] = price(p[name], name);
  }
  chain.setNextPrices(next);
  if (p.generate_block === true) chain.mine();
  return Object.fromEntries(Object.entries(FIELDS).map(([name, [unit, kind]]) => [name, shown(next[unit][kind])]));
}
