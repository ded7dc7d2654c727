import { isFeltHex } from '@nodegate/starknet-spec';
import { GatewayError } from '../../errors/GatewayError.js';

/** The tags a client may send; `pending` is the interface's name for the pre-confirmed block. */
export const BLOCK_TAGS = ['latest', 'pending', 'pre_confirmed', 'l1_accepted'] as const;

export function invalid(at: string, expected: string, got: unknown): GatewayError {
  const shown =
    got === undefined
      ? 'nothing'
      : typeof got === 'string'
        ? JSON.stringify(got.length > 80 ? `${got.slice(0, 77)}...` : got)
        : Array.isArray(got)
          ? 'an array'
          : got === null
            ? 'null'
            : typeof got === 'object'
              ? 'an object'
              : `${typeof got} ${String(got)}`;
  return new GatewayError('INVALID_PARAMS', `invalid params: ${at}: expected ${expected}, got ${shown}`);
}

export function checkFelt(v: unknown, at: string): string {
  if (isFeltHex(v)) return v;
  throw invalid(at, 'a felt (0x-prefixed hex below 2^251 + 17·2^192 + 1)', v);
}

export function checkFeltArray(v: unknown, at: string): string[] {
  if (!Array.isArray(v)) throw invalid(at, 'an array of felts', v);
  return v.map((x, i) => checkFelt(x, `${at}[${i}]`));
}

export function checkObject(v: unknown, at: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(at, 'an object', v);
  return v as Record<string, unknown>;
}

export function checkIndex(v: unknown, at: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  throw invalid(at, 'a non-negative integer', v);
}

/**
 * A block id: `{block_hash}`, `{block_number}` (decimal integer) or a tag. A bare tag is
 * allowed where `bareTagOnly` is false too (the spec allows tags for block_id).
 */
export function checkBlockId(v: unknown, at: string): unknown {
  if (typeof v === 'string') {
    if ((BLOCK_TAGS as readonly string[]).includes(v)) return v;
    throw invalid(
      at,
      `a block id: {"block_hash": felt}, {"block_number": integer} or one of ${BLOCK_TAGS.join(', ')}`,
      v,
    );
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === 'block_hash') {
      checkFelt(o.block_hash, `${at}.block_hash`);
      return v;
    }
    if (keys.length === 1 && keys[0] === 'block_number') {
      checkIndex(o.block_number, `${at}.block_number`);
      return v;
    }
  }
  throw invalid(
    at,
    `a block id: {"block_hash": felt}, {"block_number": integer} or one of ${BLOCK_TAGS.join(', ')}`,
    v,
  );
}
