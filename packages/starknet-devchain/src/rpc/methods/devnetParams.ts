import { invalidParams } from '../../errors.js';
import type { Params } from '../types.js';

/**
 * Refuses params a devnet method does not take (as starknet-devnet's deny_unknown_fields), naming the first one, so
 * that a misspelt option is an error instead of being ignored.
 *
 * @example
 * onlyParams({ account_adress: '0x1' }, ['account_address']); // throws -32602: unknown param account_adress
 */
export function onlyParams(p: Params, names: readonly string[]): void {
  for (const k of Object.keys(p)) {
    if (!names.includes(k)) {
      throw invalidParams(`unknown param ${k}${names.length ? ` (it takes ${names.join(', ')})` : ' (it takes none)'}`);
    }
  }
}
