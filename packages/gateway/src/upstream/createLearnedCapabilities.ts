/** What an upstream was found to lack, learned from its answers and forgotten in time. */
export interface LearnedCapabilities {
  /** Whether the upstream answered -32601 for `method` recently (within the time to live). */
  lacks(method: string, now: number): boolean;
  /** Records a -32601 answer for `method`. */
  learnLacks(method: string, now: number): void;
  /** Forgets everything learned (the upstream reconnected or recovered: it may be another node now). */
  forget(): void;
  /** The methods it lacks now, sorted. */
  lacked(now: number): string[];
}

/**
 * The methods one upstream lacks (it answered -32601 for them), each remembered for `ttlMs`
 * after it was learned, so a node that gained the method (upgraded, or another node behind the
 * same URL) is asked again; `forget` drops them all at once when the upstream recovers.
 *
 * @example
 * const caps = createLearnedCapabilities(600_000);
 * caps.learnLacks('trace_block', Date.now());
 * caps.lacks('trace_block', Date.now()); // true, for ten minutes
 */
export function createLearnedCapabilities(ttlMs: number): LearnedCapabilities {
  const until = new Map<string, number>();
  const lacks = (method: string, now: number) => {
    const t = until.get(method);
    if (t === undefined) return false;
    if (now < t) return true;
    until.delete(method);
    return false;
  };
  return {
    lacks,
    learnLacks(method, now) {
      until.set(method, now + ttlMs);
    },
    forget() {
      until.clear();
    },
    lacked: (now) => [...until.keys()].filter((m) => lacks(m, now)).sort(),
  };
}
