/** The most bytes an answer's head (status line and headers) or its trailers may take. */
const MAX_HEAD_BYTES = 64 * 1024;

/** An HTTP/1.1 answer's status line and headers (names in lower case, repeated ones joined by `, `). */
export interface AnswerHead {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** What an {@link AnswerParser} reports, as it reads. */
export interface AnswerEvents {
  /** The head was read (1xx heads are skipped); false pauses: `feed` stops right after it. */
  head(head: AnswerHead): boolean | undefined;
  /**
   * Bytes of the body: a view of the buffer given to `feed`, valid as long as that buffer is.
   * Returns false to pause: `feed` then stops right after this view and reports where.
   */
  body(view: Buffer): boolean;
  /** The answer ended (its trailers, for a chunked one); the parser is ready for the next answer. */
  end(trailers: Readonly<Record<string, string>>): void;
}

/** A streaming reader of HTTP/1.1 answers, fed bytes as they arrive. */
export interface AnswerParser {
  /**
   * Reads `buf[start, end)`: returns the offset it stopped at (`end` unless `body` paused it, or
   * an answer ended before the bytes did: bytes past an answer are not read). Throws on bytes
   * that are not HTTP/1.1.
   */
  feed(buf: Buffer, start: number, end: number): number;
  /** The connection closed: ends a body delimited by the close; false if the answer is incomplete. */
  close(): boolean;
  /** Whether the head was read and the body not ended. */
  readonly inBody: boolean;
}

type Phase = 'head' | 'size' | 'data' | 'crlf' | 'trailers' | 'length' | 'until-close' | 'done';

/**
 * An HTTP/1.1 answer reader that never copies a body: the body comes out as views of the bytes
 * fed in (`Content-Length`, `Transfer-Encoding: chunked` with trailers, or up to the close).
 * Head, chunk-size lines and trailers are read as latin1 text, at most 64 KiB.
 *
 * @example
 * const parser = createAnswerParser({ head: (h) => …, body: (view) => res.write(view), end: () => … });
 * socket.on('data', (b) => parser.feed(b, 0, b.byteLength));
 */
export function createAnswerParser(events: AnswerEvents): AnswerParser {
  let phase: Phase = 'head';
  /** Text of the head, a chunk-size line or the trailers, gathered across feeds. */
  let text = '';
  /** Bytes left of the current chunk, or of a Content-Length body. */
  let left = 0;
  let trailerLines: string[] = [];
  let trailerBytes = 0;

  const fail = (why: string): never => {
    throw new Error(`the IPFS node's answer is not HTTP/1.1: ${why}`);
  };

  /** Gathers text up to `marker`; the offset after it, or -1 (all consumed) when it is not there yet. */
  const gather = (buf: Buffer, at: number, end: number, marker: string): number => {
    const before = text.length;
    text += buf.toString('latin1', at, end);
    const found = text.indexOf(marker, Math.max(0, before - marker.length + 1));
    if (found === -1) {
      if (text.length > MAX_HEAD_BYTES) fail('a head, chunk line or trailer past 64 KiB');
      return -1;
    }
    const used = found + marker.length - before;
    text = text.slice(0, found);
    return at + used;
  };

  const parseFields = (lines: string[]): Record<string, string> => {
    const fields: Record<string, string> = {};
    for (const line of lines) {
      if (line === '') continue;
      const colon = line.indexOf(':');
      if (colon <= 0) fail(`a header line without a name: ${JSON.stringify(line.slice(0, 40))}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      fields[name] = fields[name] === undefined ? value : `${fields[name]}, ${value}`;
    }
    return fields;
  };

  const startBody = (status: number, headers: Record<string, string>) => {
    const noBody = status === 204 || status === 304;
    if (noBody) return finish({});
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) phase = 'size';
    else if (headers['content-length'] !== undefined) {
      left = Number(headers['content-length']);
      if (!Number.isSafeInteger(left) || left < 0) fail('a Content-Length that is not a length');
      phase = 'length';
      if (left === 0) finish({});
    } else phase = 'until-close';
  };

  const finish = (trailers: Record<string, string>) => {
    phase = 'done';
    events.end(trailers);
  };

  return {
    get inBody() {
      return phase !== 'head' && phase !== 'done';
    },
    feed(buf, start, end) {
      let at = start;
      if (phase === 'done') phase = 'head';
      while (at < end) {
        switch (phase as Phase) {
          case 'head': {
            const next = gather(buf, at, end, '\r\n\r\n');
            if (next === -1) return end;
            at = next;
            const lines = text.split('\r\n');
            text = '';
            const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
            if (m === null) fail(`a status line ${JSON.stringify((lines[0] ?? '').slice(0, 40))}`);
            const status = Number(m![1]);
            if (status >= 100 && status < 200) continue;
            const headers = parseFields(lines.slice(1));
            const go = events.head({ status, headers });
            startBody(status, headers);
            if ((phase as Phase) === 'done' || go === false) return at;
            break;
          }
          case 'size': {
            const next = gather(buf, at, end, '\r\n');
            if (next === -1) return end;
            at = next;
            const digits = text.split(';')[0]!.trim();
            if (!/^[0-9a-fA-F]{1,12}$/.test(digits)) fail('a chunk size that is not a hexadecimal length');
            const size = Number.parseInt(digits, 16);
            text = '';
            if (size === 0) phase = 'trailers';
            else {
              left = size;
              phase = 'data';
            }
            break;
          }
          case 'data':
          case 'length': {
            const n = Math.min(left, end - at);
            const view = buf.subarray(at, at + n);
            at += n;
            left -= n;
            const wasLength = phase === 'length';
            if (left === 0 && !wasLength) phase = 'crlf';
            const go = events.body(view);
            if (wasLength && left === 0) {
              finish({});
              return at;
            }
            if (!go) return at;
            break;
          }
          case 'crlf': {
            // the CRLF after a chunk's data (it may arrive a byte at a time)
            const next = gather(buf, at, Math.min(end, at + 2 - text.length), '\r\n');
            if (next === -1) {
              if (text.length >= 2) fail('a chunk not followed by CRLF');
              return end;
            }
            if (text !== '') fail('a chunk not followed by CRLF');
            at = next;
            phase = 'size';
            break;
          }
          case 'trailers': {
            // trailer lines up to an empty one (with no trailers, the empty line comes at once)
            const next = gather(buf, at, end, '\r\n');
            if (next === -1) return end;
            at = next;
            const line = text;
            text = '';
            if (line !== '') {
              trailerBytes += line.length + 2;
              if (trailerBytes > MAX_HEAD_BYTES) fail('trailers past 64 KiB');
              trailerLines.push(line);
              break;
            }
            const trailers = parseFields(trailerLines);
            trailerLines = [];
            trailerBytes = 0;
            finish(trailers);
            return at;
          }
          case 'until-close': {
            const view = buf.subarray(at, end);
            at = end;
            if (!events.body(view)) return at;
            break;
          }
          case 'done':
            return at;
        }
      }
      return at;
    },
    close() {
      if (phase === 'until-close') {
        finish({});
        return true;
      }
      return phase === 'done' || (phase === 'head' && text === '');
    },
  };
}
