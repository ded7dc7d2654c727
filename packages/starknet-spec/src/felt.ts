/** The Stark field prime P = 2^251 + 17·2^192 + 1. A felt is an integer x with 0 ≤ x < P. */
export const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** The largest felt, P − 1. */
export const FELT_MAX = FIELD_PRIME - 1n;

/**
 * A felt on the wire: `0x` and hex digits. Clients pad felts with leading zeros (to 64 digits,
 * some further), so the value decides, not the length; the length is bounded only so that no
 * input makes a huge number.
 */
const FELT_HEX = /^0x[0-9a-fA-F]{1,80}$/;

/**
 * Whether `value` is a felt: an integer in [0, P). Every nodegate package (the gateway's params
 * check, the dev chain, the snap) decides with this one check, so none refuses P − 1 or accepts P.
 *
 * @example
 * isFelt(FIELD_PRIME - 1n); // true
 * isFelt(FIELD_PRIME);      // false
 */
export function isFelt(value: bigint): boolean {
  return value >= 0n && value < FIELD_PRIME;
}

/**
 * Whether `value` is a felt as the JSON-RPC spec writes one: a `0x`-prefixed hex string (at most
 * 80 digits, leading zeros allowed) whose value is below P.
 *
 * @example
 * isFeltHex('0x1');   // true
 * isFeltHex('1');     // false (no 0x)
 * isFeltHex(`0x${FIELD_PRIME.toString(16)}`); // false (P itself)
 */
export function isFeltHex(value: unknown): value is string {
  return typeof value === 'string' && FELT_HEX.test(value) && BigInt(value) < FIELD_PRIME;
}

/**
 * Reads a felt from what a client or a tool may give: a bigint, a non-negative safe integer, a
 * `0x` hex string or a decimal string. Returns undefined for anything else and for values at or
 * above P (callers turn that into their own invalid-params error).
 *
 * @example
 * toFelt('0x10'); // 16n
 * toFelt('16');   // 16n
 * toFelt(-1);     // undefined
 */
export function toFelt(value: unknown): bigint | undefined {
  let v: bigint;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) v = BigInt(value);
  else if (typeof value === 'string' && (FELT_HEX.test(value) || /^[0-9]{1,80}$/.test(value))) v = BigInt(value);
  else return undefined;
  return isFelt(v) ? v : undefined;
}
