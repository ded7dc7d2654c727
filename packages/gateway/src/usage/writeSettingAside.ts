import type { UsageEvent } from './UsageEvent.js';
import type { UsageAggregate, UsageBatch, UsageErrorCount } from './UsageStore.js';
import { UsageWriteError } from './UsageWriteError.js';

/** One row of a batch, by the part it belongs to. */
export type UsageRow =
  | { readonly kind: 'aggregate'; readonly row: UsageAggregate }
  | { readonly kind: 'error'; readonly row: UsageErrorCount }
  | { readonly kind: 'recent'; readonly row: UsageEvent };

/** A row the database refused, with its reason. */
export interface RefusedUsageRow {
  readonly row: UsageRow;
  readonly error: unknown;
}

/** The rows of a batch, aggregates first, then error counts, then requests. */
const rowsOf = (b: UsageBatch): UsageRow[] => [
  ...b.aggregates.map((row) => ({ kind: 'aggregate' as const, row })),
  ...b.errors.map((row) => ({ kind: 'error' as const, row })),
  ...b.recent.map((row) => ({ kind: 'recent' as const, row })),
];

/** A batch of the given rows (with `keepRecentPerKey` of `like`). */
function usageBatchOf(rows: readonly UsageRow[], like?: UsageBatch): UsageBatch {
  const aggregates: UsageAggregate[] = [];
  const errors: UsageErrorCount[] = [];
  const recent: UsageEvent[] = [];
  for (const r of rows) {
    if (r.kind === 'aggregate') aggregates.push(r.row);
    else if (r.kind === 'error') errors.push(r.row);
    else recent.push(r.row);
  }
  return { aggregates, errors, recent, keepRecentPerKey: like?.keepRecentPerKey };
}

/**
 * Writes `batch` with `write` (one atomic statement per call) so that one row the database
 * refuses cannot hold back the others: when a write fails with an error that `isRowFault`
 * blames on the data (PostgreSQL's data exceptions, constraint violations, size limits), the
 * part is split in halves and each is written again, down to the single rows that still fail
 * (at most about 2·log2(n) more statements for each of them); those are handed to `setAside`
 * (the dead-letter table) and returned. Any other failure (the database is away) throws a
 * {@link UsageWriteError} holding exactly the rows not stored yet, refused ones that could not
 * be set aside included, so a retry neither loses nor repeats anything.
 *
 * @example
 * const refused = await writeSettingAside(batch, (part) => query(WRITE_SQL, writeParams(part)), isRowFault, deadLetter);
 */
export async function writeSettingAside(
  batch: UsageBatch,
  write: (part: UsageBatch) => Promise<unknown>,
  isRowFault: (err: unknown) => boolean,
  setAside: (refused: readonly RefusedUsageRow[]) => Promise<unknown>,
): Promise<RefusedUsageRow[]> {
  const refused: RefusedUsageRow[] = [];
  // parts still to write, in order; the first is the whole batch
  const pending: UsageRow[][] = [rowsOf(batch)];
  let whole = true;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part.length === 0) continue;
    try {
      await write(whole ? batch : usageBatchOf(part, batch));
    } catch (err) {
      if (!isRowFault(err)) {
        const unwritten = [...refused.map((r) => r.row), ...part, ...pending.flat()];
        throw new UsageWriteError(usageBatchOf(unwritten, batch), err);
      }
      if (part.length === 1) refused.push({ row: part[0]!, error: err });
      else {
        const mid = part.length >>> 1;
        pending.unshift(part.slice(0, mid), part.slice(mid));
      }
    }
    whole = false;
  }
  if (refused.length > 0) {
    try {
      await setAside(refused);
    } catch (err) {
      throw new UsageWriteError(
        usageBatchOf(
          refused.map((r) => r.row),
          batch,
        ),
        err,
      );
    }
  }
  return refused;
}
