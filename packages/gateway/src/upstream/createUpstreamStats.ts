/** What the router knows about one upstream's recent behaviour. */
export interface UpstreamStats {
  /** Records a finished request: its latency and whether the node answered (client errors count as answered). */
  record(latencyMs: number, ok: boolean): void;
  /** Latency, exponentially weighted (α 0.1), ms; undefined before the first answer. */
  ewmaMs(): number | undefined;
  /** The 95th percentile of the last 128 latencies, ms; undefined before 20 of them. */
  p95Ms(): number | undefined;
  /** The share of failures, exponentially weighted (α 0.05). */
  errorRate(): number;
  /** The node's head (block number) from the background probe, and how far behind the best node it is. */
  head(): number | undefined;
  setHead(head: number | undefined): void;
  lag(): number;
  setLag(lag: number): void;
  /** Lower is better: latency, multiplied up by errors and head lag. */
  score(): number;
}

const SAMPLES = 128;

/**
 * Rolling statistics of one upstream for routing: latency EWMA and p95, error rate, head and head
 * lag, folded into one score (lower is better): `ewma × (1 + 20 × errorRate) × (1 + lag)`, an
 * unknown latency counting as 50 ms. Recording allocates nothing (a ring of 128 latencies).
 *
 * @example
 * const s = createUpstreamStats();
 * s.record(12.5, true);
 * s.score();
 */
export function createUpstreamStats(): UpstreamStats {
  let ewma: number | undefined;
  let errors = 0;
  let head: number | undefined;
  let lag = 0;
  const ring = new Float64Array(SAMPLES);
  let count = 0;
  let cursor = 0;
  let p95Cache: number | undefined;
  let p95Dirty = true;
  const scratch = new Float64Array(SAMPLES);
  return {
    record(latencyMs, ok) {
      errors = errors * 0.95 + (ok ? 0 : 0.05);
      if (!ok) return;
      ewma = ewma === undefined ? latencyMs : ewma * 0.9 + latencyMs * 0.1;
      ring[cursor] = latencyMs;
      cursor = (cursor + 1) % SAMPLES;
      if (count < SAMPLES) count += 1;
      p95Dirty = true;
    },
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
    errorRate: () => errors,
    head: () => head,
    setHead(h) {
      head = h;
    },
    lag: () => lag,
    setLag(l) {
      lag = l;
    },
    score: () => (ewma ?? 50) * (1 + 20 * errors) * (1 + lag),
  };
}
