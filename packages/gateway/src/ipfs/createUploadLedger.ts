/** One upload of a key, as the ledger follows it. */
export interface UploadTracker {
  /** Bytes of the key's other uploads not yet recorded when this one opened. */
  readonly pendingAtOpen: number;
  /** Bytes every upload of the key (this one too) forwarded since this one opened. */
  forwardedSinceOpen(): number;
  /** This upload forwarded `bytes` more. */
  add(bytes: number): void;
  /** The upload's bytes are recorded (or were never stored): they stop being pending. */
  close(): void;
}

/** What a key's uploads in progress in this process add to its stored bytes. */
export interface UploadLedger {
  open(key: string): UploadTracker;
  /** Bytes the key's uploads forwarded that are not yet recorded. */
  pending(key: string): number;
}

interface KeyState {
  /** Forwarded and not yet recorded. */
  pending: number;
  /** Forwarded ever (while some upload of the key was open): never decreases. */
  forwarded: number;
  open: number;
}

/**
 * The in-process ledger of a key's uploads in progress. A storing command checks the key's
 * quota against what the database records plus what is pending here when it starts, then,
 * before each chunk, against that plus everything the key's uploads forwarded since (its own and
 * concurrent ones, recorded or not): two uploads of one key cannot each use the same room.
 * A key's entry goes once it has no upload open.
 *
 * @example
 * const ledger = createUploadLedger();
 * const upload = ledger.open(key);
 * if (used + upload.forwardedSinceOpen() + chunk.length <= limit) upload.add(chunk.length);
 */
export function createUploadLedger(): UploadLedger {
  const keys = new Map<string, KeyState>();
  return {
    pending: (key) => keys.get(key)?.pending ?? 0,
    open(key) {
      let state = keys.get(key);
      if (state === undefined) {
        state = { pending: 0, forwarded: 0, open: 0 };
        keys.set(key, state);
      }
      const s = state;
      s.open++;
      const base = s.forwarded;
      const pendingAtOpen = s.pending;
      let mine = 0;
      let closed = false;
      return {
        pendingAtOpen,
        forwardedSinceOpen: () => s.forwarded - base,
        add(bytes) {
          mine += bytes;
          s.pending += bytes;
          s.forwarded += bytes;
        },
        close() {
          if (closed) return;
          closed = true;
          s.pending -= mine;
          s.open--;
          if (s.open === 0) keys.delete(key);
        },
      };
    },
  };
}
