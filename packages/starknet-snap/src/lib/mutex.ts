/**
 * A minimal promise-based mutex: callers run one at a time, in arrival order.
 *
 * @example
 * ```ts
 * const lock = new Mutex();
 * const value = await lock.run(async () => readModifyWrite());
 * ```
 */
export class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  /**
   * Runs `fn` once every earlier caller has finished (whether it resolved or threw).
   *
   * @param fn - The critical section.
   * @returns What `fn` returns.
   */
  run<T>(fn: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(fn, fn);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * A family of mutexes keyed by string (for example one per account address), created on demand.
 *
 * @example
 * ```ts
 * const locks = new KeyedMutex();
 * await locks.run('0xabc', () => send());
 * ```
 */
export class KeyedMutex {
  readonly #locks = new Map<string, Mutex>();

  /**
   * Runs `fn` serialised with every other caller using the same key.
   *
   * @param key - The key to serialise on.
   * @param fn - The critical section.
   * @returns What `fn` returns.
   */
  run<T>(key: string, fn: () => Promise<T> | T): Promise<T> {
    let lock = this.#locks.get(key);
    if (!lock) {
      lock = new Mutex();
      this.#locks.set(key, lock);
    }
    return lock.run(fn);
  }
}
