import type { UsageBatch } from './UsageStore.js';

/**
 * A usage write that failed after part of its batch was stored (the database went away while
 * refused rows were being set aside one by one, or the request log's trim failed after the
 * write). `unwritten` is what was not stored: the recorder keeps that for the next flush, and
 * only that, so nothing is lost and nothing is counted twice.
 *
 * @example
 * try { await store.write(batch); } catch (err) { putBack(err instanceof UsageWriteError ? err.unwritten : batch); }
 */
export class UsageWriteError extends Error {
  constructor(
    readonly unwritten: UsageBatch,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'UsageWriteError';
  }
}
