import type { MethodTraits } from './types.js';

/** A table's rows, each with its `multiplexable` flag set. */
export type WithMultiplexable<T extends Record<string, MethodTraits>> = {
  readonly [K in keyof T]: T[K] & { readonly multiplexable: boolean };
};

/**
 * Sets `multiplexable` on every row of a method table from what the row already says: a `read`
 * that is not a dev method, not WebSocket-only and not a filter method is multiplexable; any
 * other kind (write, filter, subscription) never is. A row that states `multiplexable` keeps
 * its own (a read whose answer depends on the caller says `false`), except that no write,
 * filter, subscription or dev method can be made multiplexable.
 *
 * @example
 * const table = withMultiplexable({ eth_chainId: { kind: 'read', credits: 5, cache: 'immutable' } });
 * table.eth_chainId.multiplexable; // true
 */
export function withMultiplexable<T extends Record<string, MethodTraits>>(table: T): WithMultiplexable<T> {
  const out: Record<string, MethodTraits> = {};
  for (const [name, row] of Object.entries(table)) {
    const eligible = row.kind === 'read' && row.devOnly !== true && row.wsOnly !== true && row.filter === undefined;
    out[name] = { ...row, multiplexable: eligible && row.multiplexable !== false };
  }
  return out as WithMultiplexable<T>;
}
