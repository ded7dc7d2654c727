import type { Member } from '../../members/createMember.js';
import { oldestHeld } from './oldestHeld.js';

/** An upstream's block window as /health and the BLOCK_UNAVAILABLE error show it. */
export interface WindowHealth {
  /** It serves state for every block. */
  readonly archive: boolean;
  /** The oldest block it serves state for now (absent: not known yet). */
  readonly oldest?: number;
  /** Its head, the window's top. */
  readonly head?: number;
  /** A pruned node: how many of the latest blocks it keeps. */
  readonly historyBlocks?: number;
  /** How it is known: `config`, `probe` (measured at start or on recovery), `answer` (it said it lacked a block), `unknown`. */
  readonly source: 'config' | 'probe' | 'answer' | 'unknown';
}

/**
 * What is known of the blocks `m` serves state for, for `/health` and errors.
 *
 * @example
 * describeWindow(member); // { archive: false, oldest: 950, head: 1077, historyBlocks: 128, source: 'probe' }
 */
export function describeWindow(m: Member): WindowHealth {
  const w = m.window;
  if (w.kind === 'archive') return { archive: true, oldest: 0, source: w.source };
  if (w.kind === 'unknown') return { archive: false, source: 'unknown' };
  const oldest = oldestHeld(w, m.head);
  return {
    archive: false,
    ...(oldest === undefined ? {} : { oldest }),
    ...(m.head === undefined ? {} : { head: m.head }),
    historyBlocks: w.blocks,
    source: w.source,
  };
}
