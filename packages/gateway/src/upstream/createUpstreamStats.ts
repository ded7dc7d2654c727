/** What the router knows about one upstream's recent behaviour for one method class. */
export interface UpstreamStats {
  /** Records a finished request: its latency and whether the node answered (client errors count as answered). */
  record(latencyMs: number, ok: boolean): void;
  /** Records an outcome without a latency of this class (a background probe's answer or failure). */
  recordOutcome(ok: boolean): void;
  /** Latency, exponentially weighted (α 0.1), ms; undefined before the first answer. */
  ewmaMs(): number | undefined;
  /** The 95th percentile of the last 128 latencies, ms; undefined before 20 of them. */
  p95Ms(): number | undefined;
  /** Latencies recorded so far (at most 128 are kept). */
  samples(): number;
  /** The share of failures, exponentially weighted (α 0.05). */
  errorRate(): number;
  /** Forgets past failures (the upstream recovered: its breaker closed after a successful trial). */
  forgiveErrors(): void;
  /** Lower is better: latency, multiplied up by errors and by `lag`, the blocks the node is behind. */
  score(lag: number): number;
}

const SAMPLES = 128;

/**
 * Rolling statistics of one upstream for one method class (see `scoreClassOf`), for routing:
 * latency EWMA and p95, error rate, folded with the node's head lag into one score (lower is
 * better): `ewma × (1 + 20 × errorRate) × (1 + lag)`, an unknown latency counting as 50 ms.
 * Recording allocates nothing (a ring of 128 latencies).
 *
 * @example
 * const s = createUpstreamStats();
 * s.record(12.5, true);
 * s.score(0);
 */
export function createUpstreamStats(): UpstreamStats {
  let ewma: number | undefined;
  let errors = 0;
  const ring = new Float64Array(SAMPLES);
  let count = 0;
  let cursor = 0;
  let p95Cache: number | undefined;
  let p95Dirty = true;
  const scratch = new Float64Array(SAMPLES);
  const outcome = (ok: boolean) => {
    errors = errors * 0.95 + (ok ? 0 : 0.05);
  };
  return {
    record(latencyMs, ok) {
      outcome(ok);
      if (!ok) return;
      ewma = ewma === undefined ? latencyMs : ewma * 0.9 + latencyMs * 0.1;
      ring[cursor] = latencyMs;
      cursor = (cursor + 1) % SAMPLES;
      if (count < SAMPLES) count += 1;
      p95Dirty = true;
    },
    recordOutcome: outcome,
    ewmaMs: () => ewma,
    p95Ms() {
      if (count < 20) return undefined;
      if (p95Dirty) {
        scratch.set(ring);
        const view = scratch.subarray(0, count).sort();
        p95Cache = view[Math.min(count - 1, Math.floor(count * 0.95))];
        p95Dirty = false;
      }
      return p95Cache;
    },
    samples: () => count,
    errorRate: () => errors,
    forgiveErrors() {
      errors = 0;
    },
    score: (lag) => (ewma ?? 50) * (1 + 20 * errors) * (1 + lag),
  };
}
