import { methodMatches } from './consensusRuleFor.js';

const HEX = /^0x[0-9a-fA-F]*$/;

/** `value` without the field at `path` (segments; `*` for any key or index), copied where changed. */
function without(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || typeof value !== 'object' || value === null) return value;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) {
    if (head !== '*' && !/^\d+$/.test(head)) return value;
    return value.map((v, i) =>
      head === '*' || Number(head) === i ? (rest.length === 0 ? undefined : without(v, rest)) : v,
    );
  }
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (head !== '*' && k !== head) out[k] = v;
    else if (rest.length > 0) out[k] = without(v, rest);
  }
  return out;
}

/** Sorted keys, hex in lower case, `undefined` members left out: one text per meaning. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  if (typeof value === 'string' && HEX.test(value)) return JSON.stringify(value.toLowerCase());
  return JSON.stringify(value) ?? 'null';
}

/**
 * The text two answers of `method` are compared by: the result with the rule's `ignoreFields`
 * for the method left out (dotted paths, `*` for any key or index), keys sorted, hex in lower
 * case (a checksummed address and its lower case are one answer).
 *
 * @example
 * comparableAnswer({ hash: '0xAB', timestamp: '0x1' }, 'eth_getBlockByNumber', { 'eth_getBlockBy*': ['timestamp'] });
 * // '{"hash":"0xab"}'
 */
export function comparableAnswer(
  result: unknown,
  method: string,
  ignoreFields: Readonly<Record<string, readonly string[]>>,
): string {
  let v = result;
  for (const [pattern, paths] of Object.entries(ignoreFields)) {
    if (!methodMatches(pattern, method)) continue;
    for (const p of paths) v = without(v, p.split('.'));
  }
  return canonical(v);
}
