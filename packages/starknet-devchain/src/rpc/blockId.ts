/** Parsing of the spec's BLOCK_ID. */
import type { BlockId } from '../chain/Chain.js';
import { invalidParams } from '../errors.js';
import { parseFelt } from '../felt.js';

/** Parse a BLOCK_ID: a tag, `{block_hash}` or `{block_number}` (`pending` is read as `pre_confirmed`). */
export function parseBlockId(value: unknown, field = 'block_id'): BlockId {
  if (value === 'latest' || value === 'l1_accepted') return { tag: value };
  if (value === 'pre_confirmed' || value === 'pending') return { tag: 'pre_confirmed' };
  if (typeof value === 'object' && value !== null) {
    const o = value as Record<string, unknown>;
    if (o.block_hash !== undefined) return { hash: parseFelt(o.block_hash, `${field}.block_hash`) };
    if (o.block_number !== undefined) {
      const n = o.block_number;
      if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return { number: n };
      throw invalidParams(`${field}.block_number: expected a non-negative integer`);
    }
  }
  throw invalidParams(`${field}: expected a block tag, {block_hash} or {block_number}`);
}
