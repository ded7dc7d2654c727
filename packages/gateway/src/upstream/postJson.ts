import type { Dispatcher } from 'undici';
import { onAbort } from '../abort/onAbort.js';

/** What {@link postJson} resolves with: the HTTP status and the whole body as text. */
export interface PostedJson {
  readonly status: number;
  readonly text: string;
  /** The `Retry-After` header of a 429 or 503 answer, when there was one. */
  readonly retryAfter?: string | undefined;
}

/**
 * POSTs `body` to `path` on `dispatcher` and resolves with the status and the body as text.
 *
 * Built on undici's `dispatch` with a small handler of its own instead of `request()`: no
 * response stream, no header object, no per-request promise chain inside undici; the body's
 * chunks are joined once at the end. When `signal` aborts (the client went away), the request is
 * abandoned upstream and the promise rejects with the signal's reason. Timeouts are the
 * dispatcher's (`headersTimeout`, `bodyTimeout`).
 *
 * @example
 * const { status, text } = await postJson(pool, '/', ['content-type', 'application/json'], '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}');
 */
export function postJson(
  dispatcher: Dispatcher,
  path: string,
  headers: readonly string[],
  body: string,
  signal?: AbortSignal,
): Promise<PostedJson> {
  return new Promise<PostedJson>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const handler = new PostHandler(resolve, reject, signal);
    dispatcher.dispatch({ path, method: 'POST', headers: headers as string[], body }, handler);
  });
}

/** undici's handler interface (the callbacks `dispatch` drives), collecting one JSON answer. */
class PostHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private retryAfter: string | undefined;
  private chunks: Buffer[] = [];
  private abort: ((reason?: Error) => void) | undefined;
  private readonly cancelAbort: (() => void) | undefined;

  constructor(
    private readonly resolve: (value: PostedJson) => void,
    private readonly reject: (reason: unknown) => void,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (signal) this.cancelAbort = onAbort(signal, () => this.abort?.(signal.reason as Error));
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abort = abort;
    if (this.signal?.aborted) abort(this.signal.reason as Error);
  }

  onHeaders(statusCode: number, headers?: Buffer[] | string[] | null): boolean {
    this.status = statusCode;
    // read only on the answers that may carry it (no header parsing on the hot path)
    if ((statusCode === 429 || statusCode === 503) && Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) {
        if (String(headers[i]).toLowerCase() === 'retry-after') this.retryAfter = String(headers[i + 1]);
      }
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.done();
    const chunks = this.chunks;
    const text =
      chunks.length === 1 ? chunks[0]!.toString('utf8') : chunks.length === 0 ? '' : Buffer.concat(chunks).toString();
    this.resolve(
      this.retryAfter === undefined
        ? { status: this.status, text }
        : { status: this.status, text, retryAfter: this.retryAfter },
    );
  }

  onError(err: Error): void {
    this.done();
    this.reject(err);
  }

  private done(): void {
    this.cancelAbort?.();
  }
}
