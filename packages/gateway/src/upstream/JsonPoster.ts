import type { PostedJson } from './postJson.js';

/** How a {@link JsonPoster} reaches its upstream. */
export interface JsonPosterOptions {
  /** Connections open at once (busy and idle); requests beyond them wait their turn. Default 128. */
  readonly connections?: number | undefined;
  /** The answer's head within this many ms of the request, then no pause longer than it in its body. */
  readonly timeoutMs: number;
  /** A connection made within this many ms. Default the smaller of `timeoutMs` and 5,000. */
  readonly connectTimeoutMs?: number | undefined;
  /** Idle connections are closed after this many ms (sooner when the upstream's `Keep-Alive` hint says so). Default 30,000. */
  readonly keepAliveMs?: number | undefined;
  /** Certificate authorities trusted for an `https:` upstream besides the system's (PEM). */
  readonly ca?: string | undefined;
}

/**
 * JSON POSTs to one upstream URL over kept-alive HTTP/1.1 connections: what
 * `createHttpUpstream` sends its JSON-RPC bodies through. Two implementations share
 * `jsonPosterContract.ts`: {@link createJsonConnections} (nodegate's own, the default) and
 * `createUndiciPoster` (undici's pool).
 */
export interface JsonPoster {
  /**
   * POSTs `body` (JSON text) with the poster's headers; resolves with the status and the whole
   * body as text whatever the status. Rejects with an error whose `code` says what failed
   * (`ECONNREFUSED`…, a connect or answer timeout, a broken answer), or with `signal`'s reason
   * once it aborted (the request is then abandoned upstream).
   */
  post(body: string, signal?: AbortSignal): Promise<PostedJson>;
  /** Lets the requests in flight finish, then closes every connection; later posts reject. */
  close(): Promise<void>;
}
