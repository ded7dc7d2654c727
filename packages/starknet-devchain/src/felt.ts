/** Felt helpers: parsing client input and normalising output (no leading zeros). */
import { DevchainError, ErrorCode } from './errors.js';

/** The Stark field prime. */
export const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** Hex string of a non-negative bigint, `0x` prefixed, no leading zeros. */
export function toHex(value: bigint | number): string {
  return `0x${BigInt(value).toString(16)}`;
}

/** Parse a felt-like value (hex string, decimal string, number, bigint) or throw INVALID_PARAMS. */
export function parseFelt(value: unknown, field = 'value'): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^(0x[0-9a-fA-F]{1,80}|[0-9]{1,80})$/.test(value)) {
    const v = BigInt(value);
    if (v < 2n ** 256n) return v;
  }
  throw new DevchainError(ErrorCode.INVALID_PARAMS, {
    data: `${field}: expected a felt, got ${JSON.stringify(value)}`,
  });
}

/** Parse an array of felts. */
export function parseFelts(value: unknown, field = 'value'): bigint[] {
  if (!Array.isArray(value)) {
    throw new DevchainError(ErrorCode.INVALID_PARAMS, { data: `${field}: expected an array of felts` });
  }
  return value.map((v, i) => parseFelt(v, `${field}[${i}]`));
}

/** Encode an ASCII string of at most 31 characters as a felt. */
export function shortString(text: string): bigint {
  let v = 0n;
  for (const ch of text) v = (v << 8n) + BigInt(ch.charCodeAt(0));
  return v;
}

/** Decode a felt holding a short string. */
export function decodeShortString(value: bigint): string {
  let out = '';
  while (value > 0n) {
    out = String.fromCharCode(Number(value & 0xffn)) + out;
    value >>= 8n;
  }
  return out;
}

/** Split a u256 into [low, high] u128 felts. */
export function toU256(value: bigint): [bigint, bigint] {
  return [value & (2n ** 128n - 1n), value >> 128n];
}

/** Join [low, high] u128 felts into a bigint. */
export function fromU256(low: bigint, high: bigint): bigint {
  return (high << 128n) + low;
}
