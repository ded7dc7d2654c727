/** One skipped test (or describe block) and why. */
export interface SkipEntry {
  /** Full name: the describe titles and the test's own, joined with ` > `. */
  readonly test: string;
  readonly reason: string;
  /** Where it is skipped (default: both targets). */
  readonly only?: 'gateway' | 'node';
}

/** Looks up skip reasons and reports entries that named nothing. */
export interface SkipList {
  /** The reason `fullName` is skipped, or undefined when it runs. */
  reasonFor(fullName: string): string | undefined;
  /** Entries for this target that matched no registered test or describe block (stale entries). */
  unused(): string[];
}

/**
 * The skip list of one target: the entries meant for it (`only` unset or equal), by full name.
 * Two entries for one name are refused (one reason per test).
 *
 * @example
 * const skips = createSkipList([...conformanceSkips, ...mfsConformanceSkips], 'gateway');
 * skips.reasonFor('.object.new > should create a new object with no template') // undefined
 */
export function createSkipList(entries: readonly SkipEntry[], target: 'gateway' | 'node'): SkipList {
  const reasons = new Map<string, string>();
  for (const e of entries) {
    if (e.only !== undefined && e.only !== target) continue;
    if (reasons.has(e.test)) throw new Error(`skip list: "${e.test}" is listed twice`);
    reasons.set(e.test, e.reason);
  }
  const used = new Set<string>();
  return {
    reasonFor(fullName) {
      const reason = reasons.get(fullName);
      if (reason !== undefined) used.add(fullName);
      return reason;
    },
    unused: () => [...reasons.keys()].filter((name) => !used.has(name)),
  };
}
