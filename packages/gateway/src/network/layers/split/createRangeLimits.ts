import { createRangeLimit, type RangeLimit } from '../../members/createRangeLimit.js';

/** The range limits of a network's upstreams, by name (`getLogsMaxBlockRange` and what refusals taught). */
export interface RangeLimits {
  /** The limit of the upstream of that name, when the network has one. */
  of(name: string): RangeLimit | undefined;
  /** The widest range every upstream takes: the lowest of their limits (Infinity when none is known). */
  min(): number;
  /** What the upstream of that name's refusals taught is forgotten (it recovered). */
  forget(name: string): void;
}

/**
 * One `RangeLimit` per upstream of a network (`members/createRangeLimit.ts`), from its
 * `getLogsMaxBlockRange`; the split layer teaches them what refusals say and splits to the
 * lowest, so any upstream can answer any sub-range (failover keeps working).
 *
 * @example
 * const limits = createRangeLimits([{ name: 'alchemy', getLogsMaxBlockRange: 2000 }, { name: 'own' }]);
 * limits.min(); // 2000
 */
export function createRangeLimits(
  upstreams: readonly { readonly name: string; readonly getLogsMaxBlockRange?: number | undefined }[],
): RangeLimits {
  const byName = new Map<string, RangeLimit>();
  for (const u of upstreams) byName.set(u.name, createRangeLimit(u.getLogsMaxBlockRange));
  return {
    of: (name) => byName.get(name),
    min() {
      let min = Number.POSITIVE_INFINITY;
      for (const l of byName.values()) min = Math.min(min, l.max());
      return min;
    },
    forget: (name) => byName.get(name)?.forget(),
  };
}
