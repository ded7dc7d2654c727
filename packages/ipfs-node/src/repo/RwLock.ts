/**
 * A readers-writer lock without starvation of the writer: writes that pin or store blocks take
 * the shared side, garbage collection takes the exclusive side, so GC never removes blocks of an
 * add (or a pin) that is still in progress.
 */
export class RwLock {
  private readers = 0;
  private writer = false;
  private waiting: Array<{ exclusive: boolean; resolve: () => void }> = [];

  /** Runs `fn` while holding the shared side of the lock. */
  async shared<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire(false);
    try {
      return await fn();
    } finally {
      this.readers--;
      this.wake();
    }
  }

  /** Runs `fn` while holding the lock exclusively. */
  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire(true);
    try {
      return await fn();
    } finally {
      this.writer = false;
      this.wake();
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    if (this.waiting.length === 0 && this.canEnter(exclusive)) {
      this.enter(exclusive);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push({ exclusive, resolve }));
  }

  private canEnter(exclusive: boolean): boolean {
    return exclusive ? !this.writer && this.readers === 0 : !this.writer;
  }

  private enter(exclusive: boolean): void {
    if (exclusive) this.writer = true;
    else this.readers++;
  }

  private wake(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (!this.canEnter(next.exclusive)) return;
      this.waiting.shift();
      this.enter(next.exclusive);
      next.resolve();
    }
  }
}
