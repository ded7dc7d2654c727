import { GatewayError } from '../../errors/GatewayError.js';

/**
 * A positional parameter of an eth_ method: its name (used in error messages) and a parser
 * that checks the value and returns what is forwarded upstream (possibly normalised).
 */
export interface Param<T = unknown> {
  readonly name: string;
  readonly parse: (value: unknown, at: string) => T;
}

/** Builds the -32602 error for a parameter, naming where it is and what was expected. */
export function paramError(at: string, expected: string, got: unknown): GatewayError {
  return new GatewayError('INVALID_PARAMS', `invalid params: ${at}: expected ${expected}, got ${describe(got)}`);
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return v.length > 80 ? `a ${v.length}-character string` : JSON.stringify(v);
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

const HEX_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
/** The block tags a block parameter may name. */
export const BLOCK_TAGS: ReadonlySet<string> = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized']);

function fixedHex(bytes: number, what: string): Param<string>['parse'] {
  const re = new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`);
  return (v, at) => {
    if (typeof v === 'string' && re.test(v)) return v;
    throw paramError(at, `${what} (0x followed by ${bytes * 2} hex digits)`, v);
  };
}

export const parseAddress = fixedHex(20, 'a 20-byte address');
export const parseHash = fixedHex(32, 'a 32-byte hash');

/** A hex quantity without leading zeros, at most `bits` wide. */
export function parseQuantity(bits = 256): Param<string>['parse'] {
  return (v, at) => {
    if (typeof v === 'string' && QUANTITY.test(v) && v.length - 2 <= bits / 4) return v;
    throw paramError(at, `a hex quantity (0x-prefixed, no leading zeros, at most ${bits} bits)`, v);
  };
}

export const parseUint64 = parseQuantity(64);

export function parseData(v: unknown, at: string): string {
  if (typeof v === 'string' && HEX_DATA.test(v)) return v;
  throw paramError(at, 'hex data (0x followed by an even number of hex digits)', v);
}

export function parseBool(v: unknown, at: string): boolean {
  if (typeof v === 'boolean') return v;
  throw paramError(at, 'a boolean (true or false)', v);
}

/** Block parameter: a hex block number or one of latest, earliest, pending, safe, finalized. */
export function parseBlockTag(v: unknown, at: string): string {
  if (typeof v === 'string' && (BLOCK_TAGS.has(v) || (QUANTITY.test(v) && v.length <= 18))) return v;
  throw paramError(at, 'a block number in hex or one of "latest", "earliest", "pending", "safe", "finalized"', v);
}

/** Block parameter, or an EIP-1898 object `{blockHash, requireCanonical?}` / `{blockNumber}` (state methods). */
export function parseBlockOrHash(v: unknown, at: string): unknown {
  if (typeof v === 'string') return parseBlockTag(v, at);
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if ('blockHash' in o) {
      parseHash(o.blockHash, `${at}.blockHash`);
      if (o.requireCanonical !== undefined) parseBool(o.requireCanonical, `${at}.requireCanonical`);
      return v;
    }
    if ('blockNumber' in o) {
      parseBlockTag(o.blockNumber, `${at}.blockNumber`);
      return v;
    }
  }
  throw paramError(at, 'a block number in hex, a block tag, or {"blockHash": …} / {"blockNumber": …}', v);
}

/**
 * A storage slot or key: hex of at most 32 bytes, returned left-padded to 32 bytes
 * (anvil rejects short keys such as "0x0"; the slot they name is the same).
 */
export function parseStorageKey(v: unknown, at: string): string {
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)) return `0x${v.slice(2).padStart(64, '0')}`;
  throw paramError(at, 'a storage key (hex of at most 32 bytes)', v);
}

/** Storage position for eth_getStorageAt: hex of at most 32 bytes, forwarded as given. */
export function parseStoragePosition(v: unknown, at: string): string {
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)) return v;
  throw paramError(at, 'a storage position (hex of at most 32 bytes)', v);
}

export function arrayOf<T>(item: Param<T>['parse'], what: string): Param<T[]>['parse'] {
  return (v, at) => {
    if (!Array.isArray(v)) throw paramError(at, `an array of ${what}`, v);
    return v.map((x, i) => item(x, `${at}[${i}]`));
  };
}

function objectWith(
  fields: Record<string, Param['parse']>,
  what: string,
  required: readonly string[] = [],
): Param<Record<string, unknown>>['parse'] {
  return (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw paramError(at, what, v);
    const o = v as Record<string, unknown>;
    for (const r of required) if (o[r] === undefined) throw paramError(`${at}.${r}`, 'a value (required)', undefined);
    for (const [k, parse] of Object.entries(fields)) {
      if (o[k] !== undefined && o[k] !== null) parse(o[k], `${at}.${k}`);
    }
    return o;
  };
}

const accessList = arrayOf(
  objectWith({ address: parseAddress, storageKeys: arrayOf(parseHash, '32-byte keys') }, 'an access-list entry', [
    'address',
  ]),
  'access-list entries',
);

/** Transaction call object (eth_call, eth_estimateGas, eth_createAccessList). */
export const parseCallObject = objectWith(
  {
    from: parseAddress,
    to: parseAddress,
    gas: parseUint64,
    gasPrice: parseQuantity(),
    maxFeePerGas: parseQuantity(),
    maxPriorityFeePerGas: parseQuantity(),
    maxFeePerBlobGas: parseQuantity(),
    value: parseQuantity(),
    data: parseData,
    input: parseData,
    nonce: parseUint64,
    type: parseQuantity(8),
    chainId: parseQuantity(),
    accessList,
    blobVersionedHashes: arrayOf(parseHash, '32-byte hashes'),
  },
  'a transaction call object',
);

const topicEntry = (v: unknown, at: string): unknown => {
  if (v === null) return v;
  if (Array.isArray(v)) return arrayOf(parseHash, 'topics')(v, at);
  return parseHash(v, at);
};

/** Log filter object (eth_getLogs, eth_newFilter, logs subscriptions). */
export const parseLogFilter = (v: unknown, at: string): Record<string, unknown> => {
  const o = objectWith(
    {
      fromBlock: parseBlockTag,
      toBlock: parseBlockTag,
      blockHash: parseHash,
      address: (a, p) => (Array.isArray(a) ? arrayOf(parseAddress, 'addresses')(a, p) : parseAddress(a, p)),
      topics: arrayOf(topicEntry, 'topics (null, a 32-byte hash, or an array of them)'),
    },
    'a log filter object',
  )(v, at);
  if (o.blockHash !== undefined && (o.fromBlock !== undefined || o.toBlock !== undefined)) {
    throw paramError(at, 'either "blockHash" or "fromBlock"/"toBlock", not both', v);
  }
  return o;
};

/** Reward percentiles for eth_feeHistory: ascending numbers from 0 to 100. */
export function parsePercentiles(v: unknown, at: string): number[] {
  if (!Array.isArray(v)) throw paramError(at, 'an array of percentiles (0 to 100, ascending)', v);
  let last = -1;
  return v.map((p, i) => {
    if (typeof p !== 'number' || p < 0 || p > 100 || p < last) {
      throw paramError(`${at}[${i}]`, 'a number from 0 to 100, not below the one before it', p);
    }
    last = p;
    return p;
  });
}

/** eth_feeHistory block count: a hex quantity or a plain integer, 1 to 1024. */
export function parseBlockCount(v: unknown, at: string): unknown {
  const n = typeof v === 'number' ? v : typeof v === 'string' && QUANTITY.test(v) ? Number.parseInt(v, 16) : Number.NaN;
  if (Number.isInteger(n) && n >= 1 && n <= 1024) return v;
  throw paramError(at, 'a block count from 1 to 1024 (hex or integer)', v);
}

/** eth_subscribe arguments: newHeads | logs (+ filter) | newPendingTransactions (+ full flag). */
export function parseSubscriptionKind(v: unknown, at: string): string {
  if (v === 'newHeads' || v === 'logs' || v === 'newPendingTransactions') return v;
  throw paramError(at, 'one of "newHeads", "logs", "newPendingTransactions"', v);
}

export function parseFilterId(v: unknown, at: string): string {
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(v)) return v;
  throw paramError(at, 'a filter or subscription id (hex string)', v);
}

export function parseAny(v: unknown): unknown {
  return v;
}

/** Shorthand for a named parameter. */
export function p<T>(name: string, parse: Param<T>['parse']): Param<T> {
  return { name, parse };
}
