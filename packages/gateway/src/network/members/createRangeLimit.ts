/** The widest block range one upstream takes in one `eth_getLogs` / `starknet_getEvents`. */
export interface RangeLimit {
  /** `getLogsMaxBlockRange` of its config, when set. */
  readonly configured: number | undefined;
  /** What its refusals taught (the limit it named, or less than a range it refused), until it recovers. */
  learned(): number | undefined;
  /** The widest range (blocks, both ends counted) to send it: the lower of both, Infinity when neither is known. */
  max(): number;
  /** It refused a range of `span` blocks (and named `limit`, when it did). */
  refused(span: number | undefined, limit: number | undefined): void;
  /** It recovered (or its capabilities are re-learned): what its refusals taught is forgotten. */
  forget(): void;
}

/**
 * The range limit of one upstream: `configured` (its `getLogsMaxBlockRange`) and what its
 * refusals teach. A refusal that names a limit teaches that limit; one that names none teaches
 * half the span it refused (at least 1), so the next split fits without asking again.
 *
 * @example
 * const limit = createRangeLimit(2000);
 * limit.refused(2000, 1000);
 * limit.max(); // 1000
 */
export function createRangeLimit(configured: number | undefined): RangeLimit {
  let learned: number | undefined;
  return {
    configured,
    learned: () => learned,
    max() {
      const c = configured ?? Number.POSITIVE_INFINITY;
      return learned === undefined ? c : Math.min(c, learned);
    },
    refused(span, limit) {
      const taught = limit ?? (span === undefined ? undefined : Math.max(1, Math.floor(span / 2)));
      if (taught === undefined) return;
      // a refusal of a span within the limit it names: it counts differently (to - from > limit)
      const fit = span !== undefined && span <= taught ? Math.max(1, span - 1) : taught;
      learned = learned === undefined ? fit : Math.min(learned, fit);
    },
    forget() {
      learned = undefined;
    },
  };
}
