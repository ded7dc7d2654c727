import type { UsageBatch } from './UsageStore.js';

/**
 * `batch` cut into consecutive parts of at most `maxRows` rows (aggregates, then error counts,
 * then requests, in their order), each with the batch's `keepRecentPerKey`. A usage store writes
 * a large flush part by part, so that the part of the work that runs on the gateway's own thread
 * (cleaning the rows, handing them to the database: serialising them for its worker or its
 * driver) stays short between two waits on the database, whatever the flush's size.
 *
 * @example
 * splitUsageBatch({ aggregates: a2500, errors: [], recent: r100 }, 1000).length; // 3
 */
export function splitUsageBatch(batch: UsageBatch, maxRows: number): UsageBatch[] {
  const max = Math.max(1, Math.floor(maxRows));
  const { aggregates, errors, recent } = batch;
  if (aggregates.length + errors.length + recent.length <= max) return [batch];
  const parts: UsageBatch[] = [];
  let a = 0;
  let e = 0;
  let r = 0;
  while (a < aggregates.length || e < errors.length || r < recent.length) {
    let room = max;
    const pa = aggregates.slice(a, a + room);
    a += pa.length;
    room -= pa.length;
    const pe = errors.slice(e, e + room);
    e += pe.length;
    room -= pe.length;
    const pr = recent.slice(r, r + room);
    r += pr.length;
    parts.push({ aggregates: pa, errors: pe, recent: pr, keepRecentPerKey: batch.keepRecentPerKey });
  }
  return parts;
}
