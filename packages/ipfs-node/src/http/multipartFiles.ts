import type { IncomingMessage } from 'node:http';
import { IpfsNodeError } from '../errors.js';

/** One part of a multipart request body, as Kubo's clients send files and directories. */
export interface MultipartFile {
  /** Form field name without client hints (`file`, `file-1`, `dir-2`…). */
  field: string;
  /**
   * Decoded path, normalised as Kubo does (`path.Clean("/" + name)` without its leading `/`:
   * `/planets//./mars.txt` is `planets/mars.txt`, a `..` cannot climb above the root); `''`
   * when the client sent no file name.
   */
  path: string;
  type: 'file' | 'directory' | 'symlink';
  /**
   * UnixFS metadata the client sent for this entry in the form field name
   * (`file?mode=0644&mtime=1700000000&mtime-nsecs=5`, as Kubo's clients send it); undefined
   * when absent or unreadable (Kubo ignores values that do not parse).
   */
  mode?: number;
  mtime?: { secs: bigint; nsecs?: number };
  /** The part's bytes; read it before asking for the next part. */
  content: AsyncIterable<Uint8Array>;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 64 * 1024;
/** An upload that sends nothing for this long fails (it would otherwise hold the GC lock). */
const UPLOAD_IDLE_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * Streams the parts of a `multipart/form-data` request one at a time, pulling the request body
 * only as fast as part contents are consumed, so an upload is never buffered whole. Boundaries
 * are found with `Buffer.indexOf` (native search). Unread content of a part is skipped when
 * the next part is requested.
 */
export async function* multipartFiles(req: IncomingMessage, signal: AbortSignal): AsyncGenerator<MultipartFile> {
  const boundary = boundaryOf(req.headers['content-type'] ?? '');
  const reader = new PartReader(new RequestSource(req, signal), boundary, signal);
  try {
    while (true) {
      const part = await reader.nextPart();
      if (part === undefined) return;
      yield part;
      await reader.skipRest();
    }
  } finally {
    await reader.close();
  }
}

function boundaryOf(contentType: string): string {
  const m = /;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (boundary === undefined || boundary.length > 200) {
    throw new IpfsNodeError('client', 'invalid multipart body: missing or invalid boundary');
  }
  return boundary;
}

class PartReader {
  private buf: Buffer = CRLF; // the first delimiter has no preceding CRLF: pretend it has
  private ended = false;
  private inBody = false;
  private finished = false;
  private readonly delimiter: Buffer;

  constructor(
    private readonly source: RequestSource,
    boundary: string,
    private readonly signal: AbortSignal,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  /** Appends the next request chunk; false at the end of the request. */
  private async fill(): Promise<boolean> {
    this.signal.throwIfAborted();
    if (this.ended) return false;
    const next = await this.source.next();
    this.signal.throwIfAborted();
    if (next.done === true) {
      this.ended = true;
      return false;
    }
    this.buf = this.buf.byteLength === 0 ? next.value : Buffer.concat([this.buf, next.value]);
    return true;
  }

  private truncated(): IpfsNodeError {
    return new IpfsNodeError('client', 'invalid multipart body: unexpected end of request');
  }

  async nextPart(): Promise<MultipartFile | undefined> {
    if (this.finished) return undefined;
    // find the next delimiter (the preamble before the first one is ignored)
    while (true) {
      const at = this.buf.indexOf(this.delimiter);
      if (at >= 0) {
        this.buf = this.buf.subarray(at + this.delimiter.byteLength);
        break;
      }
      this.buf = this.buf.subarray(Math.max(0, this.buf.byteLength - this.delimiter.byteLength + 1));
      if (!(await this.fill())) throw this.truncated();
    }
    // "--" closes the body; otherwise optional padding then CRLF
    while (this.buf.byteLength < 2) if (!(await this.fill())) throw this.truncated();
    if (this.buf[0] === 0x2d && this.buf[1] === 0x2d) {
      this.finished = true;
      return undefined;
    }
    while (true) {
      const eol = this.buf.indexOf(CRLF);
      if (eol >= 0) {
        this.buf = this.buf.subarray(eol + 2);
        break;
      }
      if (this.buf.byteLength > 1024) throw new IpfsNodeError('client', 'invalid multipart body: bad delimiter line');
      if (!(await this.fill())) throw this.truncated();
    }
    // headers
    let headerText: string;
    while (true) {
      if (this.buf.byteLength >= 2 && this.buf[0] === 0x0d && this.buf[1] === 0x0a) {
        headerText = '';
        this.buf = this.buf.subarray(2);
        break;
      }
      const end = this.buf.indexOf(HEADER_END);
      if (end >= 0) {
        headerText = this.buf.subarray(0, end).toString('utf8');
        this.buf = this.buf.subarray(end + 4);
        break;
      }
      if (this.buf.byteLength > MAX_HEADER_BYTES)
        throw new IpfsNodeError('client', 'invalid multipart body: headers too large');
      if (!(await this.fill())) throw this.truncated();
    }
    this.inBody = true;
    return toFile(parseHeaders(headerText), this.body());
  }

  /** The current part's bytes, up to (not including) the next delimiter. */
  private async *body(): AsyncGenerator<Uint8Array> {
    while (this.inBody) {
      const at = this.buf.indexOf(this.delimiter);
      if (at >= 0) {
        const data = this.buf.subarray(0, at);
        // leave the delimiter in place for nextPart
        this.buf = this.buf.subarray(at);
        this.inBody = false;
        if (data.byteLength > 0) yield data;
        return;
      }
      // keep back only a tail that could start a delimiter split across reads (usually none,
      // so the next read is used as is, without copying)
      const cut = this.partialDelimiterAt();
      if (cut > 0) {
        const data = this.buf.subarray(0, cut);
        this.buf = this.buf.subarray(cut);
        yield data;
      }
      if (!(await this.fill())) throw this.truncated();
    }
  }

  /** Where a suffix of the buffer that is a prefix of the delimiter begins (buffer length if none). */
  private partialDelimiterAt(): number {
    const buf = this.buf;
    for (let p = Math.max(0, buf.byteLength - this.delimiter.byteLength + 1); p < buf.byteLength; p++) {
      if (buf[p] !== 0x0d) continue;
      if (buf.subarray(p).equals(this.delimiter.subarray(0, buf.byteLength - p))) return p;
    }
    return buf.byteLength;
  }

  /** Skips whatever the consumer left unread of the current part. */
  async skipRest(): Promise<void> {
    if (!this.inBody) return;
    for await (const _ of this.body()) {
      // discard
    }
  }

  /**
   * Releases the request. A body read to its closing delimiter is drained to its end (so the
   * connection can serve the next request); otherwise the rest is left for the HTTP handler,
   * which discards it after answering.
   */
  async close(): Promise<void> {
    if (this.finished && !this.ended) {
      try {
        while (!this.ended) await this.fill();
      } catch {
        // the client went away after the closing delimiter: nothing left to drain
      }
    }
    this.source.release();
  }
}

/**
 * Pulls request chunks one at a time (paused mode), without the stream's async iterator, which
 * destroys the request (and the keep-alive socket) when iteration stops early.
 */
class RequestSource {
  private failure: unknown;
  private ended = false;
  private wake: (() => void) | undefined;
  private readonly onReadable = () => this.notify();
  private readonly onEnd = () => {
    this.ended = true;
    this.notify();
  };
  private readonly onError = (err: unknown) => {
    this.failure = err;
    this.notify();
  };
  private readonly onClose = () => {
    if (!this.ended) this.failure ??= new IpfsNodeError('client', 'invalid multipart body: unexpected end of request');
    this.notify();
  };

  private readonly onAbort = () => {
    this.failure ??= this.signal.reason;
    this.notify();
  };

  constructor(
    private readonly req: IncomingMessage,
    private readonly signal: AbortSignal,
  ) {
    // an abort (timeout, client gone) must also end a wait for data that may never come
    signal.addEventListener('abort', this.onAbort, { once: true });
    req.on('readable', this.onReadable);
    req.on('end', this.onEnd);
    req.on('error', this.onError);
    req.on('close', this.onClose);
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async next(): Promise<IteratorResult<Buffer>> {
    while (true) {
      const chunk = this.req.read() as Buffer | null;
      if (chunk !== null) return { done: false, value: chunk };
      if (this.failure !== undefined) throw this.failure;
      if (this.ended || this.req.readableEnded) return { done: true, value: undefined };
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        timer = setTimeout(() => {
          this.failure ??= new IpfsNodeError(
            'client',
            `upload stalled: no data for ${UPLOAD_IDLE_TIMEOUT_MS / 1000} s`,
          );
          this.notify();
        }, UPLOAD_IDLE_TIMEOUT_MS);
      });
      clearTimeout(timer);
    }
  }

  release(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.req.off('readable', this.onReadable);
    this.req.off('end', this.onEnd);
    this.req.off('error', this.onError);
    this.req.off('close', this.onClose);
  }
}

interface PartHeaders {
  field: string;
  filename: string | undefined;
  contentType: string;
}

function parseHeaders(text: string): PartHeaders {
  let field = '';
  let filename: string | undefined;
  let contentType = 'application/octet-stream';
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-type') contentType = value.split(';')[0]!.trim().toLowerCase();
    if (name !== 'content-disposition') continue;
    const params = dispositionParams(value);
    field = params.get('name') ?? '';
    const extended = params.get('filename*');
    if (extended !== undefined) {
      const m = /^([^']*)'[^']*'(.*)$/.exec(extended);
      filename = m === null ? extended : decodeExtended(m[2]!);
    } else {
      filename = params.get('filename');
    }
  }
  return { field, filename, contentType };
}

/** Parameters of a Content-Disposition value (`form-data; name="file"; filename="a%2Fb"`). */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const re = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    const v = m[2] === undefined ? (m[3] ?? '').trim() : m[2].replace(/\\(.)/g, '$1');
    params.set(m[1]!.toLowerCase(), v);
  }
  return params;
}

/** RFC 5987 `filename*` values are plain percent-encoding (`+` stays `+`). */
function decodeExtended(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Decodes a file name as Kubo does (Go's `url.QueryUnescape`: `+` is a space). */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replaceAll('+', ' '));
  } catch {
    // not percent-encoded (the Go client sends plain names): keep as sent
    return s;
  }
}

function toFile(h: PartHeaders, content: AsyncIterable<Uint8Array>): MultipartFile {
  const q = h.field.indexOf('?');
  const field = q < 0 ? h.field : h.field.slice(0, q);
  const type =
    h.contentType === 'application/x-directory'
      ? 'directory'
      : h.contentType === 'application/symlink'
        ? 'symlink'
        : 'file';
  const file: MultipartFile = { field, path: cleanUploadName(safeDecode(h.filename ?? '')), type, content };
  if (q >= 0) Object.assign(file, fieldMetadata(new URLSearchParams(h.field.slice(q + 1))));
  return file;
}

/**
 * Kubo's name normalisation of an uploaded file (`path.Clean("/" + name)`), without the leading
 * `/`: empty and `.` segments go, `..` removes the segment before it and never climbs above the
 * root. `'/foo/bar.txt'` is `'foo/bar.txt'`; `'a/../../b'` is `'b'`.
 */
export function cleanUploadName(name: string): string {
  const out: string[] = [];
  for (const segment of name.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out.join('/');
}

/** `mode` (octal) and `mtime`/`mtime-nsecs` from a form field's query, as Kubo reads them. */
function fieldMetadata(params: URLSearchParams): Pick<MultipartFile, 'mode' | 'mtime'> {
  const out: Pick<MultipartFile, 'mode' | 'mtime'> = {};
  const mode = params.get('mode');
  if (mode !== null && /^[0-7]{1,11}$/.test(mode)) {
    const value = Number.parseInt(mode, 8);
    if (value <= 0xffffffff) out.mode = value;
  }
  const secs = params.get('mtime');
  if (secs !== null && /^[+-]?\d{1,19}$/.test(secs)) {
    const nsecs = Number(params.get('mtime-nsecs') ?? '0');
    const valid = Number.isInteger(nsecs) && nsecs > 0 && nsecs <= 999_999_999;
    out.mtime = valid ? { secs: BigInt(secs), nsecs } : { secs: BigInt(secs) };
  }
  return out;
}
