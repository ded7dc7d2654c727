/** Lets MFS changes and the node's garbage collection take turns in one gateway process. */
export interface CollectionGate {
  /** Runs an MFS change: many at once, never while a collection runs. */
  shared<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs a collection once the changes in progress ended, or after `maxWaitMs` even if some have
   * not (a slow upload cannot hold collections off); changes that come meanwhile wait.
   */
  exclusive<T>(fn: () => Promise<T>, maxWaitMs?: number): Promise<T>;
}

/**
 * The in-process gate between MFS changes and the collection. An MFS change stores its new blocks
 * unpinned, then pins its new root: a `repo/gc` in between would remove the blocks. So a
 * collection waits for the changes in progress (at most `maxWaitMs`), and changes that start while
 * it waits or runs wait for it (it is never starved). A change a collection cuts anyway (one that
 * outlasted the wait, or one a collection of another gateway instance met) fails when the node
 * cannot pin the new root: the key's MFS stays as it was.
 *
 * @example
 * const gate = createCollectionGate();
 * await gate.exclusive(() => collectIpfsGarbage(upstream, pins, options));
 */
export function createCollectionGate(): CollectionGate {
  let active = 0;
  let collecting: Promise<void> | undefined;
  let idle: (() => void) | undefined;
  return {
    async shared(fn) {
      while (collecting !== undefined) await collecting;
      active++;
      try {
        return await fn();
      } finally {
        active--;
        if (active === 0) idle?.();
      }
    },
    async exclusive(fn, maxWaitMs = 30_000) {
      while (collecting !== undefined) await collecting;
      let done!: () => void;
      collecting = new Promise<void>((resolve) => {
        done = resolve;
      });
      try {
        if (active > 0) {
          let timer: NodeJS.Timeout | undefined;
          await new Promise<void>((resolve) => {
            idle = resolve;
            timer = setTimeout(resolve, maxWaitMs);
          });
          clearTimeout(timer);
          idle = undefined;
        }
        return await fn();
      } finally {
        collecting = undefined;
        done();
      }
    },
  };
}
