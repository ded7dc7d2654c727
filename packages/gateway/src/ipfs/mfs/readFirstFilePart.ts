import type { IncomingMessage } from 'node:http';
import { IpfsCommandError } from '../IpfsCommandError.js';
import { discardRequestBody } from '../writeIpfsError.js';

/** How {@link readFirstFilePart} bounds what it reads. */
export interface FilePartLimits {
  /** Content past this many bytes is read and dropped (Kubo's `count`). */
  readonly maxContentBytes?: number | undefined;
  /** The whole body may be at most this many bytes (`ipfs.maxRequestBytes`): 413 past it. */
  readonly maxBodyBytes: number;
  /** Called before each piece of content is handed on; false refuses it with `refusal` (413). */
  readonly admit?: ((bytes: number) => boolean) | undefined;
  readonly refusal?: (() => string) | undefined;
}

const NO_FILE = 'file argument "data" is required';

/**
 * The next chunk of a request body, or null at its end; the stream is only ever read (never
 * destroyed, as leaving a `for await` loop would), so an error can still be answered.
 */
async function readChunk(req: IncomingMessage): Promise<Buffer | null> {
  for (;;) {
    const chunk = req.read() as Buffer | null;
    if (chunk !== null) return chunk;
    if (req.readableEnded || req.destroyed) return null;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        req.off('readable', done);
        req.off('end', done);
        req.off('close', done);
        req.off('error', fail);
      };
      const ok = () => {
        done();
        resolve();
      };
      const fail = (err: Error) => {
        done();
        reject(err);
      };
      req.once('readable', ok);
      req.once('end', ok);
      req.once('close', ok);
      req.once('error', fail);
    });
  }
}

/**
 * Where the delimiter line that ends a part starts (`\r\n--boundary` followed by `--` or a line
 * end, as Go's multipart reader reads it), or -1 when `held` has none yet (a match too close to
 * the end to tell counts as none).
 */
function delimiterAt(held: Buffer, closing: Buffer): number {
  for (let at = held.indexOf(closing); at >= 0; at = held.indexOf(closing, at + 1)) {
    const after = held.subarray(at + closing.byteLength, at + closing.byteLength + 2).toString('latin1');
    if (after.length < 2) return -1;
    if (after === '--' || after === '\r\n' || /^[ \t]/.test(after)) return at;
  }
  return -1;
}

/**
 * The content of the first part of a `multipart/form-data` request, streamed as it arrives (Kubo's
 * `files/write` takes one file): the part's headers are skipped, its content is handed on in the
 * pieces the socket delivers (a few bytes held back to find the closing boundary). The rest of
 * the body is read and dropped. 400 when the body is not multipart or has no part; 413 past the
 * body limit or when `admit` refuses.
 *
 * @example
 * for await (const chunk of readFirstFilePart(req, { maxBodyBytes })) write(chunk);
 */
export async function* readFirstFilePart(req: IncomingMessage, limits: FilePartLimits): AsyncGenerator<Uint8Array> {
  const contentType = req.headers['content-type'];
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundary = m?.[1] ?? m?.[2];
  if (!contentType?.toLowerCase().startsWith('multipart/') || boundary === undefined) {
    throw new IpfsCommandError(400, NO_FILE, 1);
  }
  const opening = Buffer.from(`--${boundary}`);
  const closing = Buffer.from(`\r\n--${boundary}`);
  let state: 'preamble' | 'headers' | 'content' | 'done' = 'preamble';
  let held: Buffer = Buffer.alloc(0);
  let total = 0;
  let finished = false;
  let content = 0;
  const maxContent = limits.maxContentBytes ?? Number.POSITIVE_INFINITY;
  try {
    for (let chunk = await readChunk(req); chunk !== null; chunk = await readChunk(req)) {
      total += chunk.byteLength;
      if (total > limits.maxBodyBytes) {
        throw new IpfsCommandError(413, `request body too large: the limit is ${limits.maxBodyBytes} bytes`, 1);
      }
      if (state === 'done') continue;
      held = held.byteLength === 0 ? chunk : Buffer.concat([held, chunk]);
      if (state === 'preamble') {
        const at = held.indexOf(opening);
        if (at < 0) {
          held = held.subarray(Math.max(0, held.byteLength - opening.byteLength));
          continue;
        }
        held = held.subarray(at + opening.byteLength);
        state = 'headers';
      }
      if (state === 'headers') {
        if (held.subarray(0, 2).toString() === '--') {
          state = 'done'; // the closing delimiter: no part at all
          continue;
        }
        const end = held.indexOf('\r\n\r\n');
        if (end < 0) {
          if (held.byteLength > 64 * 1024)
            throw new IpfsCommandError(400, 'malformed multipart body: headers too long', 1);
          continue;
        }
        held = held.subarray(end + 4);
        state = 'content';
      }
      const end = delimiterAt(held, closing);
      // the last bytes may start a delimiter: held back until the next chunk tells
      const ready = end >= 0 ? end : Math.max(0, held.byteLength - closing.byteLength - 2);
      const wanted = Math.min(ready, Math.max(0, maxContent - content));
      if (wanted > 0) {
        const piece = held.subarray(0, wanted);
        if (limits.admit && !limits.admit(piece.byteLength)) {
          throw new IpfsCommandError(413, limits.refusal?.() ?? 'storage limit reached', 1);
        }
        content += wanted;
        yield piece;
      }
      held = held.subarray(ready);
      if (end >= 0) {
        state = 'done';
        finished = true;
        held = Buffer.alloc(0);
      }
    }
    if (state === 'preamble' || state === 'headers' || (state === 'done' && !finished)) {
      throw new IpfsCommandError(400, NO_FILE, 1);
    }
    if (!finished) throw new IpfsCommandError(400, 'malformed multipart body: no closing boundary', 1);
  } finally {
    if (!req.readableEnded) discardRequestBody(req);
  }
}
