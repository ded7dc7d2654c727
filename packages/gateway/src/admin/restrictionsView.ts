import type { Static } from '@sinclair/typebox';
import { ETH_DEV_NAMESPACES, ethDevMethod, ethMethods } from '../families/eth/ethMethods.js';
import { type StarknetMethod, starknetMethods } from '../families/starknet/starknetMethods.js';
import type { MethodPolicy, MethodTraits } from '../families/types.js';
import type { RestrictionsResponse } from './adminSchemas.js';

type RestrictionsView = Static<typeof RestrictionsResponse>;
type CheckedMethod = RestrictionsView['contracts']['methods'][number];

/** The param a method reads the state of (eth's `address`, Starknet's `contract_address`). */
const ACCOUNT_PARAMS: ReadonlySet<string> = new Set(['address', 'contract_address']);

const checked = (
  family: string,
  method: string,
  aliases: readonly string[],
  params: readonly string[],
  row: MethodTraits,
): CheckedMethod => ({
  method,
  aliases: [...aliases],
  family,
  params: [...params],
  readsAccount: params.some((p) => ACCOUNT_PARAMS.has(p)),
  wsOnly: row.wsOnly === true,
  devOnly: row.devOnly === true,
});

let built: RestrictionsView | undefined;

/**
 * What the key restrictions apply to, read from the method tables (never a copied list): every
 * eth and Starknet method whose row has a `contracts` trait, that is, every method the contract
 * allowlist checks (each address it names must be on the list), and the dev-chain prefixes
 * (`anvil_`, `evm_`) refused outright for a key with a contract allowlist. A method that reads
 * the state of the address it is given (`eth_getBalance`, `eth_getTransactionCount`,
 * `eth_getCode`, `starknet_getNonce`…) has `readsAccount`: a plain wallet address must be on
 * the list for it. Built once (the tables are constant).
 *
 * @example
 * restrictionsView().contracts.methods.find((m) => m.method === 'eth_getBalance')
 * // { method: 'eth_getBalance', aliases: [], family: 'eth', params: ['address', 'block parameter'], readsAccount: true, … }
 */
export function restrictionsView(): RestrictionsView {
  if (built) return built;
  const methods: CheckedMethod[] = [];
  for (const [name, row] of Object.entries(ethMethods) as [string, MethodPolicy][]) {
    if (row.contracts === undefined) continue;
    methods.push(
      checked(
        'eth',
        name,
        [],
        row.params.map((p) => p.name),
        row,
      ),
    );
  }
  for (const [name, row] of Object.entries(starknetMethods) as [string, StarknetMethod][]) {
    if (row.contracts === undefined) continue;
    methods.push(checked('starknet', `starknet_${name}`, [`stk_${name}`], row.params, row));
  }
  // the dev-chain row passes its params unchecked; when it names every contract ([]) whatever
  // it is given, a key with a contract allowlist is refused every anvil_*/evm_* call
  const devReachesAll = ethDevMethod.contracts?.([])?.length === 0;
  const refusedPrefixes = devReachesAll
    ? ETH_DEV_NAMESPACES.map((prefix) => ({ prefix, family: 'eth', devOnly: ethDevMethod.devOnly === true }))
    : [];
  built = { contracts: { methods, refusedPrefixes } };
  return built;
}
