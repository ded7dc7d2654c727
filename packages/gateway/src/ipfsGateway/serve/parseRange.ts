/** What a `Range` header asks of an entity of a known size. */
export type RangeRequest =
  /** No usable range: the whole entity (absent, not `bytes=`, malformed, or several ranges). */
  | { readonly kind: 'whole' }
  /** One satisfiable range, inclusive bounds. */
  | { readonly kind: 'part'; readonly start: number; readonly end: number }
  /** A range that does not overlap the entity: 416. */
  | { readonly kind: 'unsatisfiable' };

/**
 * Reads a `Range` header against an entity of `size` bytes (RFC 9110 §14): one range
 * (`bytes=0-99`, `bytes=100-`, `bytes=-100`) is served as a part (206); a range past the end is
 * unsatisfiable (416); anything else (several ranges, another unit, malformed) is ignored and the
 * whole entity is served (200), as the RFC allows.
 *
 * @example
 * parseRange('bytes=0-1023', 1 << 20) // { kind: 'part', start: 0, end: 1023 }
 * parseRange('bytes=-10', 100)        // { kind: 'part', start: 90, end: 99 }
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return { kind: 'whole' };
  const [, first = '', last = ''] = m;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    if (size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' };
  return { kind: 'part', start, end };
}
