import { GatewayError } from '../../errors/GatewayError.js';
import type { MethodTraits } from '../types.js';
import { checkBlockId, checkFelt, checkObject, invalid } from './starknetParams.js';

/** A row of the dev methods table: traits, param names (positional order) and the exact checks before any call. */
export interface StarknetDevMethod extends MethodTraits {
  readonly params: readonly string[];
  /** Checks the named params (unknown names are refused before this). */
  readonly validate?: (params: Record<string, unknown>) => void;
}

// Every dev method changes or reaches chain-wide state (any account's balance, the blocks, who may send without a
// signature), so a key with a contract allowlist is refused them: `contracts` names every contract ([]). The two
// reads of the dev chain's own configuration name none.
const EVERY_CONTRACT = (): readonly string[] => [];

const devWrite = (params: readonly string[], validate?: StarknetDevMethod['validate']): StarknetDevMethod => ({
  kind: 'write',
  credits: 80,
  cache: 'never',
  devOnly: true,
  contracts: EVERY_CONTRACT,
  params,
  ...(validate ? { validate } : {}),
});

const devRead = (params: readonly string[], contracts?: MethodTraits['contracts']): StarknetDevMethod => ({
  kind: 'read',
  credits: 20,
  cache: 'never',
  devOnly: true,
  params,
  ...(contracts ? { contracts } : {}),
});

const requireValue = (p: Record<string, unknown>, name: string): unknown => {
  if (p[name] === undefined) throw invalid(name, 'a value (required)', undefined);
  return p[name];
};
const accountAddress = (p: Record<string, unknown>) =>
  void checkFelt(requireValue(p, 'account_address'), 'account_address');
const startingBlock = (p: Record<string, unknown>) =>
  void checkBlockId(requireValue(p, 'starting_block_id'), 'starting_block_id');

const GAS_PRICES = [
  'gas_price_wei',
  'data_gas_price_wei',
  'gas_price_fri',
  'data_gas_price_fri',
  'l2_gas_price_wei',
  'l2_gas_price_fri',
] as const;

function gasPrices(p: Record<string, unknown>): void {
  for (const name of GAS_PRICES) {
    const v = p[name];
    if (v === undefined) continue;
    const ok =
      (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) ||
      (typeof v === 'string' &&
        /^(0x[0-9a-fA-F]{1,32}|[0-9]{1,39})$/.test(v) &&
        BigInt(v) > 0n &&
        BigInt(v) < 2n ** 128n);
    if (!ok) throw invalid(name, 'a positive integer below 2^128 (number, decimal or 0x string)', v);
  }
  if (p.generate_block !== undefined && typeof p.generate_block !== 'boolean') {
    throw invalid('generate_block', 'a boolean', p.generate_block);
  }
}

/**
 * The dev chain's own methods (starknet-devnet's `devnet_*`), served on dev networks only: each with its params and
 * checks, credits and its contract allowlist rule. A `devnet_*` method not listed here is forwarded as it is with the
 * traits of {@link unlistedDevMethod} (the dev chain answers -32601 for one it lacks).
 */
export const starknetDevMethods: Readonly<Record<string, StarknetDevMethod>> = {
  devnet_getPredeployedAccounts: devRead(['with_balance']),
  devnet_getConfig: devRead([]),
  devnet_getAccountBalance: devRead(['address', 'unit', 'block_id'], EVERY_CONTRACT),
  devnet_mint: devWrite(['address', 'amount', 'unit']),
  devnet_createBlock: devWrite([]),
  devnet_setTime: devWrite(['time', 'generate_block']),
  devnet_increaseTime: devWrite(['time']),
  devnet_dump: devWrite(['path']),
  devnet_load: devWrite(['path']),
  devnet_restart: devWrite(['restart_l1_to_l2_messaging']),
  devnet_impersonateAccount: devWrite(['account_address'], accountAddress),
  devnet_stopImpersonateAccount: devWrite(['account_address'], accountAddress),
  devnet_autoImpersonate: devWrite([]),
  devnet_stopAutoImpersonate: devWrite([]),
  devnet_abortBlocks: devWrite(['starting_block_id'], startingBlock),
  devnet_acceptOnL1: devWrite(['starting_block_id'], startingBlock),
  devnet_setGasPrice: devWrite([...GAS_PRICES, 'generate_block'], gasPrices),
};

/** The row of a `devnet_*` method the table does not list: forwarded unchecked, refused to restricted keys. */
export const unlistedDevMethod: StarknetDevMethod = devWrite([]);

/**
 * The named params of a listed dev method (a positional array read in its order), checked: unknown names and a
 * non-object are refused with -32602, then the row's own checks run. Unlisted methods keep their params as sent.
 *
 * @example
 * devParams('devnet_abortBlocks', starknetDevMethods.devnet_abortBlocks!, [{ block_number: 3 }]);
 * // { starting_block_id: { block_number: 3 } }
 */
export function devParams(method: string, row: StarknetDevMethod, raw: unknown): unknown {
  if (row === unlistedDevMethod) return raw ?? {};
  let named: Record<string, unknown>;
  if (raw === undefined || raw === null) named = {};
  else if (Array.isArray(raw)) {
    if (raw.length > row.params.length) {
      throw new GatewayError(
        'INVALID_PARAMS',
        `invalid params: ${method} takes at most ${row.params.length} params, got ${raw.length}`,
      );
    }
    named = Object.fromEntries(raw.map((v, i) => [row.params[i]!, v]));
  } else named = { ...checkObject(raw, 'params') };
  for (const k of Object.keys(named)) {
    if (!row.params.includes(k)) {
      throw new GatewayError(
        'INVALID_PARAMS',
        `invalid params: ${method} has no param "${k}"${row.params.length ? ` (it takes ${row.params.join(', ')})` : ' (it takes none)'}`,
      );
    }
  }
  row.validate?.(named);
  return named;
}
