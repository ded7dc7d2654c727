import type { ServerResponse } from 'node:http';
import type { ServedMeter } from '../../ipfs/createServedMeter.js';
import type { UpstreamBody } from '../../ipfs/IpfsUpstream.js';

/** The most bytes written at once (what the meter may let through before it is charged). */
const PIECE = 64 * 1024;

/** Writes an answer's body through the account's bandwidth meter, with backpressure both ways. */
export interface BodyWriter {
  /** Writes one chunk once the meter lets it through and the socket has room; rejects when the answer must stop. */
  write(chunk: Uint8Array): Promise<void>;
  /**
   * Writes the rest of `stream` (the node's answer, paused or flowing) as it comes: paused while
   * the meter or the socket holds a chunk back, so backpressure reaches the node. A stream that
   * brings nothing for `idleMs` is destroyed and the promise rejects (the answer stops: a slow
   * block never holds it longer), and so does a stream that ends early or with an
   * `X-Stream-Error` trailer. A body with `release` has each chunk given back once its write
   * completed (its read buffer then takes another read). `tap` sees each chunk before it is
   * written (while it is still valid: a copy is the tap's to make).
   */
  pump(stream: UpstreamBody, idleMs: number, tap?: (chunk: Uint8Array) => void): Promise<void>;
  /** Bytes written so far. */
  readonly bytes: number;
}

const ignore = () => undefined;

/** Thrown when the answer cannot go on: the client went away, or the node stalled or failed mid-answer. */
export class AnswerStopped extends Error {
  override readonly name = 'AnswerStopped';
}

/**
 * A {@link BodyWriter} for `res`: each chunk is first taken from `meter` (the account's gateway
 * bandwidth: paced, and stopped at the day's bound: `createServedMeter`'s refusal rejects the
 * write), then written; when the socket's buffer is full it waits for `drain`, so a slow client
 * slows the node's stream instead of filling memory. While the meter and the socket let every
 * piece through at once (the usual case), a chunk costs no promise and no timer.
 *
 * @example
 * const body = createBodyWriter(res, meter);
 * await body.write(header);
 * await body.pump(await openUpstreamStream(upstream, 'cat', { arg: cid }, signal), idleMs);
 */
export function createBodyWriter(res: ServerResponse, meter: ServedMeter): BodyWriter {
  let bytes = 0;
  const drain = () =>
    new Promise<void>((resolve, reject) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', gone);
        resolve();
      };
      const gone = () => {
        res.off('drain', done);
        res.off('close', gone);
        reject(new AnswerStopped('the client went away'));
      };
      res.on('drain', done);
      res.on('close', gone);
    });
  /**
   * Writes `chunk` from `at` on, in pieces: the meter counts each before it is sent, so a day's
   * bandwidth is passed by one piece at most (`paid`: the first piece was already let through);
   * `written` is called once the last piece's write completed.
   * Undefined when all of it was written at once; else a promise for the rest (after the meter's
   * wait or the socket's drain). Throws (or rejects) {@link AnswerStopped} when the client went
   * away, and the meter's refusal when it stops.
   */
  const writeFrom = (chunk: Uint8Array, at: number, paid = false, written?: () => void): Promise<void> | undefined => {
    for (; at < chunk.byteLength; at += PIECE, paid = false) {
      if (res.destroyed || res.writableEnded) throw new AnswerStopped('the client went away');
      const piece = at === 0 && chunk.byteLength <= PIECE ? chunk : chunk.subarray(at, at + PIECE);
      const wait = paid ? undefined : meter.take(piece.byteLength);
      if (wait !== undefined) {
        const from = at;
        return wait.then(() => writeFrom(chunk, from, true, written));
      }
      bytes += piece.byteLength;
      const last = at + PIECE >= chunk.byteLength;
      if (!(last && written !== undefined ? res.write(piece, written) : res.write(piece))) {
        const next = at + PIECE;
        return drain().then(() => writeFrom(chunk, next, false, written));
      }
    }
    return undefined;
  };
  return {
    async write(chunk) {
      await writeFrom(chunk, 0);
    },
    get bytes() {
      return bytes;
    },
    pump(stream, idleMs, tap) {
      return new Promise<void>((resolve, reject) => {
        let settled = false;
        let ended = false;
        /** A chunk still being written (the stream is paused meanwhile). */
        let busy = false;
        const timer = setTimeout(() => fail(new AnswerStopped('the IPFS node stalled past the deadline')), idleMs);
        const cleanup = () => {
          clearTimeout(timer);
          stream.off('data', onData);
          stream.off('end', onEnd);
          stream.off('error', onError);
          stream.off('close', onClose);
        };
        const fail = (err: unknown) => {
          if (settled) return;
          settled = true;
          cleanup();
          stream.destroy();
          reject(err);
        };
        const finish = () => {
          if (settled) return;
          settled = true;
          cleanup();
          const trailer = (stream as { trailers?: Record<string, string | undefined> }).trailers?.['x-stream-error'];
          if (trailer) reject(new AnswerStopped(`the IPFS node failed mid-answer: ${trailer.slice(0, 200)}`));
          else resolve();
        };
        const release = stream.release?.bind(stream);
        const onData = (chunk: Buffer) => {
          let pending: Promise<void> | undefined;
          tap?.(chunk);
          try {
            pending = writeFrom(chunk, 0, false, release && (() => release(chunk)));
          } catch (err) {
            return fail(err);
          }
          if (pending === undefined) {
            timer.refresh();
            return;
          }
          // held back (meter or socket): the node waits too, and the idle clock does not run
          busy = true;
          stream.pause();
          clearTimeout(timer);
          pending.then(() => {
            busy = false;
            if (settled) return;
            if (ended) return finish();
            timer.refresh();
            stream.resume();
          }, fail);
        };
        const onEnd = () => {
          ended = true;
          if (!busy) finish();
        };
        const onError = (err: Error) => fail(err instanceof AnswerStopped ? err : new AnswerStopped(err.message));
        // closed without its end: the node (or the connection to it) failed mid-answer
        const onClose = () => {
          if (!ended) fail(new AnswerStopped('the IPFS node closed the answer before its end'));
        };
        // an error after the answer settled (listeners gone) must not become an uncaught one
        stream.on('error', ignore);
        if (stream.readableEnded) return finish();
        if (stream.destroyed) return fail(new AnswerStopped('the IPFS node closed the answer before its end'));
        stream.on('data', onData);
        stream.on('end', onEnd);
        stream.on('error', onError);
        stream.on('close', onClose);
        if (stream.isPaused()) stream.resume();
      });
    },
  };
}
