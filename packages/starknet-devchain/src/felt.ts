/** Felt helpers: parsing client input and normalising output (no leading zeros). */
import { FIELD_PRIME, toFelt } from '@nodegate/starknet-spec';
import { DevchainError, ErrorCode } from './errors.js';

/** The Stark field prime (from the shared felt module). */
export { FIELD_PRIME };

/** Hex string of a non-negative bigint, `0x` prefixed, no leading zeros. */
export function toHex(value: bigint | number): string {
  return `0x${BigInt(value).toString(16)}`;
}

/**
 * Parse a felt-like value (hex string, decimal string, number, bigint) or throw INVALID_PARAMS.
 * Values at or above the field prime are refused, as everywhere in nodegate.
 */
export function parseFelt(value: unknown, field = 'value'): bigint {
  const v = toFelt(value);
  if (v !== undefined) return v;
  const shown = typeof value === 'bigint' ? `0x${value.toString(16)}` : JSON.stringify(value);
  throw new DevchainError(ErrorCode.INVALID_PARAMS, {
    data: `${field}: expected a felt (below 2^251 + 17·2^192 + 1), got ${shown}`,
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
