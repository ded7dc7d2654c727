import type { MethodTraits } from '../types.js';

/**
 * Where an eth method's positional params name addresses, for the key's contract allowlist
 * (`MethodTraits.contracts`, built from a row's sites by {@link contractsAt}). `at` is the param's
 * index. What each kind of param names:
 * - `address`: the param is one address (eth_getBalance, eth_getCode, eth_getStorageAt…);
 * - `call`: a transaction object. Its `to`; none (a contract creation, whose init code can reach
 *   any contract) or an `authorizationList` (EIP-7702: code delegated to any contract) reaches
 *   every contract. Each `accessList[].address`. `from` runs no code and is named only when the
 *   call sends value or pays a gas price (the node then reads its balance, and its answer tells
 *   whether the balance covers it);
 * - `logFilter`: a log filter's `address`, one or a list; none means every contract;
 * - `logsSubscription`: eth_subscribe's options, a log filter when params[0] is `logs`, else nothing;
 * - `stateOverrides`: each account overridden (an object keyed by address). Only `balance` and
 *   `nonce` may be set: `code` runs any code at the address, `state`/`stateDiff` can point a proxy
 *   (or any stored address) at any contract, and `movePrecompileToAddress` moves code; these, and
 *   any field not known, reach every contract;
 * - `blockOverrides`: `feeRecipient`/`coinbase`; `withdrawals` (they credit accounts) and any
 *   field not known to name no address reach every contract.
 * Absent or null optional params name nothing.
 */
export type EthAddressSite = {
  readonly at: number;
  readonly holds: 'address' | 'call' | 'logFilter' | 'logsSubscription' | 'stateOverrides' | 'blockOverrides';
};

/** The answer of one site: named addresses, nothing, or every contract. */
type Named = readonly string[] | undefined | typeof EVERY;
const EVERY = Symbol('every contract');
const NONE: readonly string[] = Object.freeze([]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Non-null, non-zero quantity (`0x0` and absent move nothing). */
const nonZero = (v: unknown): boolean => v !== undefined && v !== null && v !== '0x0' && v !== '0x' && v !== 0;

/** Fields of a call object that make the node read the sender's balance. */
const PAYING_FIELDS = ['value', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'maxFeePerBlobGas'] as const;
/** State override fields that name no other contract and change no code. */
const STATE_OVERRIDE_FIELDS: ReadonlySet<string> = new Set(['balance', 'nonce']);
/** Block override fields that name no address (geth's and anvil's spellings). */
const BLOCK_OVERRIDE_PLAIN: ReadonlySet<string> = new Set([
  'number',
  'difficulty',
  'time',
  'gasLimit',
  'prevRandao',
  'random',
  'baseFee',
  'baseFeePerGas',
  'blobBaseFee',
  'beaconRoot',
  'blockHash',
]);
const BLOCK_OVERRIDE_ADDRESSES: ReadonlySet<string> = new Set(['feeRecipient', 'coinbase']);

function address(v: unknown): Named {
  return typeof v === 'string' ? [v] : EVERY;
}

function call(v: unknown): Named {
  if (!isObject(v) || typeof v.to !== 'string') return EVERY;
  const out = [v.to];
  if (v.accessList !== undefined && v.accessList !== null) {
    if (!Array.isArray(v.accessList)) return EVERY;
    for (const entry of v.accessList) {
      if (!isObject(entry) || typeof entry.address !== 'string') return EVERY;
      out.push(entry.address);
    }
  }
  const auth = v.authorizationList;
  if (auth !== undefined && auth !== null && !(Array.isArray(auth) && auth.length === 0)) return EVERY;
  if (PAYING_FIELDS.some((f) => nonZero(v[f]))) {
    if (v.from !== undefined && v.from !== null) {
      if (typeof v.from !== 'string') return EVERY;
      out.push(v.from);
    }
  }
  return out;
}

function logFilter(v: unknown): Named {
  if (!isObject(v)) return EVERY;
  const a = v.address;
  if (typeof a === 'string') return [a];
  if (Array.isArray(a) && a.length > 0 && a.every((x) => typeof x === 'string')) return a as string[];
  return EVERY;
}

function stateOverrides(v: unknown): Named {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) return EVERY;
  const out: string[] = [];
  for (const [account, override] of Object.entries(v)) {
    if (!isObject(override)) return EVERY;
    for (const [field, value] of Object.entries(override)) {
      if (value !== null && value !== undefined && !STATE_OVERRIDE_FIELDS.has(field)) return EVERY;
    }
    out.push(account);
  }
  return out;
}

function blockOverrides(v: unknown): Named {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) return EVERY;
  const out: string[] = [];
  for (const [field, value] of Object.entries(v)) {
    if (value === null || value === undefined || BLOCK_OVERRIDE_PLAIN.has(field)) continue;
    if (!BLOCK_OVERRIDE_ADDRESSES.has(field) || typeof value !== 'string') return EVERY;
    out.push(value);
  }
  return out;
}

function read(site: EthAddressSite, params: readonly unknown[]): Named {
  const v = params[site.at];
  switch (site.holds) {
    case 'address':
      return address(v);
    case 'call':
      return call(v);
    case 'logFilter':
      return logFilter(v);
    case 'logsSubscription':
      return params[0] === 'logs' ? logFilter(v) : undefined;
    case 'stateOverrides':
      return stateOverrides(v);
    case 'blockOverrides':
      return blockOverrides(v);
  }
}

/**
 * The `contracts` trait of an eth row from where its params name addresses: every address the
 * sites name, in order; `[]` (refused when the key has a contract allowlist) as soon as one site
 * can reach every contract (no `to`, no log address, overridden code or storage, params of an
 * unexpected shape); `undefined` when no site names anything (a `newHeads` subscription). Never
 * throws.
 *
 * @example
 * const contracts = contractsAt({ at: 0, holds: 'call' }, { at: 2, holds: 'stateOverrides' });
 * contracts([{ to: A }, 'latest'])                                  // [A]
 * contracts([{ to: A }, 'latest', { [B]: { balance: '0x1' } }])     // [A, B]
 * contracts([{ to: A }, 'latest', { [A]: { code: '0x60006000' } }]) // [] (overridden code)
 */
export function contractsAt(...sites: readonly EthAddressSite[]): NonNullable<MethodTraits['contracts']> {
  return (params) => {
    if (!Array.isArray(params)) return NONE;
    let named: string[] | undefined;
    for (const site of sites) {
      const found = read(site, params);
      if (found === EVERY) return NONE;
      if (found !== undefined) named = named === undefined ? [...found] : [...named, ...found];
    }
    return named;
  };
}
