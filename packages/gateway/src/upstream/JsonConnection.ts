import type { Socket } from 'node:net';
import type { PostedJson } from './postJson.js';
import type { AnswerHead } from './readAnswerHead.js';

/** Where a connection's answer is (the body modes are the head's `framing`). */
export const Phase = {
  Idle: 0,
  Head: 1,
  Length: 2,
  ChunkSize: 3,
  ChunkData: 4,
  ChunkEnd: 5,
  Trailers: 6,
  UntilClose: 7,
} as const;
export type Phase = (typeof Phase)[keyof typeof Phase];

/** One request: its text, and the promise's ends (it is its own `onAbort` callback: no closure per request). */
export class Request {
  conn: Connection | undefined;
  constructor(
    readonly text: string,
    readonly resolve: (answer: PostedJson) => void,
    readonly reject: (err: unknown) => void,
    readonly signal: AbortSignal | undefined,
    readonly pool: Pool,
  ) {}
  handleEvent(): void {
    this.pool.abandon(this);
  }
}

export interface Connection {
  readonly socket: Socket;
  /** The read buffer of a plain connection (TLS connections are given their chunks). */
  readonly buffer: Buffer | undefined;
  connected: boolean;
  request: Request | undefined;
  phase: Phase;
  /** A head (or chunk-size line, or trailers) split over reads, so far (latin1). */
  partial: string;
  head: AnswerHead | undefined;
  /** Body bytes still to come (Length, ChunkData), or the chunk's CRLF (ChunkEnd). */
  left: number;
  /** A body that came in more than one read (copied out of the reused buffer). */
  parts: Buffer[];
  partsBytes: number;
  /** When the upstream has taken too long (performance.now() ms): the answer, the connect, or the idle time. */
  deadline: number;
  /** Idle time the upstream allows (its `Keep-Alive: timeout=` hint, less a second), ms. */
  keepAliveMs: number;
  /** Why it closed, when an error said so first. */
  failure: unknown;
}

/** The pool's side of a request, for `Request.handleEvent`. */
export interface Pool {
  abandon(request: Request): void;
}
