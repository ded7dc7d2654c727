import { isFelt } from '@nodegate/starknet-spec';
import { num } from 'starknet';
import { invalidParam } from './errors';

/** A request's named params. */
export type Params = Readonly<Record<string, unknown>>;

const ADDRESS_MAX = 2n ** 251n;
const HEX = /^0x[0-9a-fA-F]{1,64}$/;
const DEC = /^[0-9]{1,78}$/;

/**
 * Checks that the request params are an object (absent params count as `{}`).
 *
 * @param params - The raw `request.params`.
 * @returns The params object.
 * @throws -32602 naming `params` otherwise.
 */
export function asParams(params: unknown): Params {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params))
    throw invalidParam('params', 'must be an object of named params');
  return params as Params;
}

/**
 * A required account or contract address: a hex string below 2^251.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The normalised address (lowercase, no leading zeros).
 */
export function reqAddress(p: Params, name: string): string {
  const v = p[name];
  if (v === undefined || v === null || v === '') throw invalidParam(name, 'is required (a 0x-prefixed hex address)');
  if (typeof v !== 'string' || !HEX.test(v)) throw invalidParam(name, 'must be a 0x-prefixed hex address');
  const n = BigInt(v);
  if (n === 0n || n >= ADDRESS_MAX) throw invalidParam(name, 'is not a valid Starknet address (must be in 1..2^251)');
  return num.toHex(n);
}

/**
 * An optional address.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The normalised address, or undefined.
 */
export function optAddress(p: Params, name: string): string | undefined {
  return p[name] === undefined || p[name] === null ? undefined : reqAddress(p, name);
}

/**
 * A required transaction hash (a felt in hex).
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The normalised hash.
 */
export function reqHash(p: Params, name: string): string {
  const v = p[name];
  if (typeof v !== 'string' || !HEX.test(v)) throw invalidParam(name, 'must be a 0x-prefixed hex transaction hash');
  if (!isFelt(BigInt(v))) throw invalidParam(name, 'is larger than a field element');
  return num.toHex(v);
}

/**
 * A required non-empty string.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The string.
 */
export function reqString(p: Params, name: string): string {
  const v = p[name];
  if (typeof v !== 'string' || v.trim() === '') throw invalidParam(name, 'is required (a non-empty string)');
  return v.trim();
}

/**
 * An optional integer in a range, with a default.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @param def - The default when absent.
 * @param min - Smallest allowed value.
 * @param max - Largest allowed value.
 * @returns The integer.
 */
export function optInt(p: Params, name: string, def: number, min: number, max: number): number {
  const v = p[name];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'number' || !Number.isInteger(v))
    throw invalidParam(name, `must be an integer between ${min} and ${max}`);
  if (v < min || v > max) throw invalidParam(name, `must be between ${min} and ${max} (got ${v})`);
  return v;
}

/**
 * An optional integer index without default.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The index or undefined.
 */
export function optIndex(p: Params, name: string): number | undefined {
  if (p[name] === undefined || p[name] === null) return undefined;
  return optInt(p, name, 0, 0, 2 ** 31 - 1);
}

/**
 * An optional boolean with a default.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @param def - The default.
 * @returns The boolean.
 */
export function optBool(p: Params, name: string, def: boolean): boolean {
  const v = p[name];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'boolean') throw invalidParam(name, 'must be a boolean');
  return v;
}

/**
 * Optional call data: a comma-separated string (or an array) of felts, each decimal or 0x-hex.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The felts as hex strings (empty when absent).
 * @example
 * ```ts
 * optCalldata({ contractCallData: '0x1, 10, 0' }, 'contractCallData'); // ['0x1', '0xa', '0x0']
 * ```
 */
export function optCalldata(p: Params, name: string): string[] {
  const v = p[name];
  if (v === undefined || v === null || v === '') return [];
  let items: unknown[];
  if (typeof v === 'string') items = v.split(',').map((s) => s.trim());
  else if (Array.isArray(v)) items = v;
  else throw invalidParam(name, 'must be a comma-separated string of numbers');
  return items.map((item, i) => {
    const s = typeof item === 'number' && Number.isSafeInteger(item) ? String(item) : item;
    if (typeof s !== 'string' || !(HEX.test(s) || DEC.test(s))) {
      throw invalidParam(name, `item ${i} (${JSON.stringify(item)}) is not a decimal or 0x-hex number`);
    }
    const n = BigInt(s);
    if (!isFelt(n)) throw invalidParam(name, `item ${i} is larger than a field element`);
    return num.toHex(n);
  });
}

/**
 * An optional positive fee amount (decimal or 0x-hex string, or a safe integer), in the fee token's smallest unit.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The amount, or undefined.
 */
export function optAmount(p: Params, name: string): bigint | undefined {
  const v = p[name];
  if (v === undefined || v === null || v === '') return undefined;
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !(HEX.test(s) || DEC.test(s))) {
    throw invalidParam(name, 'must be a positive integer amount (decimal or 0x-hex string)');
  }
  const n = BigInt(s);
  if (n <= 0n) throw invalidParam(name, 'must be greater than zero');
  return n;
}

/** The most calls one transaction may carry. */
export const MAX_CALLS = 64;

/**
 * Required calls of a multicall: a non-empty array (at most {@link MAX_CALLS}) of
 * `{contractAddress, entrypoint, calldata?}`; each field is checked as its own parameter (`calls[1].calldata`).
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The calls with normalised addresses and hex call data.
 */
export function reqCalls(
  p: Params,
  name: string,
): { contractAddress: string; entrypoint: string; calldata: string[] }[] {
  const v = p[name];
  if (!Array.isArray(v) || v.length === 0) throw invalidParam(name, 'must be a non-empty array of calls');
  if (v.length > MAX_CALLS) throw invalidParam(name, `holds ${v.length} calls; at most ${MAX_CALLS} per transaction`);
  return v.map((item, i) => {
    const label = `${name}[${i}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      throw invalidParam(label, 'must be an object {contractAddress, entrypoint, calldata}');
    }
    const c = item as Params;
    const contractAddress = reqAddress({ [`${label}.contractAddress`]: c.contractAddress }, `${label}.contractAddress`);
    const entrypoint = reqString({ [`${label}.entrypoint`]: c.entrypoint }, `${label}.entrypoint`);
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,30}$/.test(entrypoint)) {
      throw invalidParam(`${label}.entrypoint`, 'must be a Cairo function name (letters, digits, _; at most 31)');
    }
    const calldata = optCalldata({ [`${label}.calldata`]: c.calldata }, `${label}.calldata`);
    return { contractAddress, entrypoint, calldata };
  });
}

/** Resource bounds as the node takes them (amounts and prices as bigints). */
export interface ResourceBoundsParam {
  l1_gas: { max_amount: bigint; max_price_per_unit: bigint };
  l2_gas: { max_amount: bigint; max_price_per_unit: bigint };
  l1_data_gas: { max_amount: bigint; max_price_per_unit: bigint };
}

/**
 * Optional v3 resource bounds: `{l1_gas, l2_gas, l1_data_gas}`, each `{max_amount, max_price_per_unit}` as decimal
 * or hex strings.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @returns The bounds, or undefined.
 */
export function optResourceBounds(p: Params, name: string): ResourceBoundsParam | undefined {
  const v = p[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) {
    throw invalidParam(name, 'must be an object {l1_gas, l2_gas, l1_data_gas}');
  }
  const o = v as Params;
  const amount = (x: unknown, label: string): bigint => {
    const s = typeof x === 'number' && Number.isSafeInteger(x) ? String(x) : x;
    if (typeof s !== 'string' || !(HEX.test(s) || DEC.test(s))) {
      throw invalidParam(label, 'must be a non-negative integer (decimal or 0x-hex string)');
    }
    const n = BigInt(s);
    if (n >= 2n ** 128n) throw invalidParam(label, 'must be below 2^128');
    return n;
  };
  const resource = (k: 'l1_gas' | 'l2_gas' | 'l1_data_gas') => {
    const r = o[k];
    if (!r || typeof r !== 'object')
      throw invalidParam(`${name}.${k}`, 'is required ({max_amount, max_price_per_unit})');
    const b = r as Params;
    return {
      max_amount: amount(b.max_amount, `${name}.${k}.max_amount`),
      max_price_per_unit: amount(b.max_price_per_unit, `${name}.${k}.max_price_per_unit`),
    };
  };
  return { l1_gas: resource('l1_gas'), l2_gas: resource('l2_gas'), l1_data_gas: resource('l1_data_gas') };
}
