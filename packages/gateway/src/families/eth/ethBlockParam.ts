import type { MethodPolicy } from '../types.js';
import { ethMethods } from './ethMethods.js';
import { parseBlockOrHash, parseBlockTag, parseLogFilter } from './params.js';

/** Where an Ethereum method names its block: the position of that param, and whether it is a log filter. */
export interface EthBlockParam {
  readonly at: number;
  /** The param is a log filter (`fromBlock`/`toBlock`/`blockHash`), not a block tag or block-or-hash. */
  readonly filter: boolean;
}

/** Read once from the method table: no method name list, a new row with a block parameter is covered. */
const BLOCK_PARAMS = (() => {
  const found = new Map<string, EthBlockParam>();
  const table: Readonly<Record<string, MethodPolicy>> = ethMethods;
  for (const [method, row] of Object.entries(table)) {
    if (row.kind === 'subscription') continue;
    const at = row.params.findIndex(
      (p) => p.parse === parseBlockTag || p.parse === parseBlockOrHash || p.parse === parseLogFilter,
    );
    if (at >= 0) found.set(method, { at, filter: row.params[at]!.parse === parseLogFilter });
  }
  return found;
})();

/**
 * Where the Ethereum method `method` names its block (the param its table row parses as a block tag, a block or
 * hash, or a log filter), or undefined when it names none. Used by the cache's plans and by the reading of "no such
 * block" answers against the heads.
 *
 * @example
 * ethBlockParam('eth_getBalance'); // { at: 1, filter: false }
 * ethBlockParam('eth_getLogs');    // { at: 0, filter: true }
 */
export const ethBlockParam = (method: string): EthBlockParam | undefined => BLOCK_PARAMS.get(method);
