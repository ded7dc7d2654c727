import type { BlockWindow } from './BlockWindow.js';

/**
 * The oldest block whose state an upstream with window `w` serves while its head is `head`:
 * 0 for an archive, `head - blocks + 1` (at least 0) for a pruned node, undefined when that is
 * not known (the window or the head unknown: it is asked).
 *
 * @example
 * oldestHeld({ kind: 'recent', blocks: 128, source: 'config' }, 1_000); // 873
 * oldestHeld({ kind: 'archive', source: 'probe' }, 1_000);             // 0
 */
export function oldestHeld(w: BlockWindow, head: number | undefined): number | undefined {
  if (w.kind === 'archive') return 0;
  if (w.kind === 'unknown' || head === undefined) return undefined;
  return Math.max(0, head - w.blocks + 1);
}
