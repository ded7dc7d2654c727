/**
 * JSON with object keys sorted and `undefined` members left out, so `{a,b}` and `{b,a}` give one
 * cache key (Starknet's named params).
 *
 * @example
 * canonicalParams({ class_hash: '0x1', block_id: 'latest' }); // '{"block_id":"latest","class_hash":"0x1"}'
 */
export function canonicalParams(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalParams).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalParams(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
