/**
 * Where an error belongs on the Kubo wire:
 * - `request`: the request could not be parsed (missing argument, bad option value); 400 text.
 * - `client`: the command failed because of its input (Kubo error code 1); 400 JSON.
 * - `command`: the command failed (Kubo error code 0); 500 JSON.
 */
export type IpfsErrorKind = 'request' | 'client' | 'command';

/**
 * The one error class of the IPFS node. `src/http/writeError.ts` maps it (and any other error,
 * treated as `command`) to the wire, before or after streaming started.
 *
 * @example
 * ```ts
 * throw new IpfsNodeError('command', 'not pinned or pinned indirectly');
 * ```
 */
export class IpfsNodeError extends Error {
  override readonly name = 'IpfsNodeError';
  /** How the error is reported on the wire. */
  readonly kind: IpfsErrorKind;

  constructor(kind: IpfsErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }

  /** Kubo's (offline) error for a block that is not in the local blockstore. */
  static blockNotFound(cid: string, cause?: unknown): IpfsNodeError {
    return new IpfsNodeError('command', `block was not found locally (offline): ipld: could not find ${cid}`, {
      cause,
    });
  }

  /** Normalizes anything thrown into this class (aborts and timeouts get Kubo's context messages). */
  static from(err: unknown): IpfsNodeError {
    if (err instanceof IpfsNodeError) return err;
    if (err instanceof Error && err.name === 'AbortError') {
      return new IpfsNodeError('command', 'context canceled', { cause: err });
    }
    if (err instanceof Error && err.name === 'TimeoutError') {
      return new IpfsNodeError('command', 'context deadline exceeded', { cause: err });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new IpfsNodeError('command', message, { cause: err });
  }

  /** Kubo's numeric error code for JSON error bodies (0 normal, 1 client). */
  get code(): 0 | 1 {
    return this.kind === 'command' ? 0 : 1;
  }
}
