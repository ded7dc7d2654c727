/**
 * The blocks an upstream can serve state for (balances, code, storage, calls at a block):
 * `archive`: every block; `recent`: the latest `blocks` blocks below its own head (a pruned
 * node: geth keeps 128); `unknown`: not learned yet (it is asked, and its answers teach).
 * `source` says how it is known: the upstream's config (`archive`, `historyBlocks`), the
 * availability probe at start and on recovery, or an answer that it lacked a block.
 */
export type BlockWindow =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'archive'; readonly source: 'config' | 'probe' }
  | { readonly kind: 'recent'; readonly blocks: number; readonly source: 'config' | 'probe' | 'answer' };

/** The window an upstream's config states (`archive: true`, `historyBlocks: N`), else `unknown` (learned). */
export function configuredWindow(u: {
  readonly archive?: boolean | undefined;
  readonly historyBlocks?: number | undefined;
}): BlockWindow {
  if (u.archive === true) return { kind: 'archive', source: 'config' };
  if (u.historyBlocks !== undefined) return { kind: 'recent', blocks: u.historyBlocks, source: 'config' };
  return { kind: 'unknown' };
}
