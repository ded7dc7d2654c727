import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { IpfsNodeError } from '../errors.js';

/** One part of a multipart request body, as Kubo's clients send files and directories. */
export interface MultipartFile {
  /** Form field name without client hints (`file`, `file-1`, `dir-2`…). */
  field: string;
  /** Decoded relative path (`planets/mars.txt`), `''` when the client sent no file name. */
  path: string;
  type: 'file' | 'directory' | 'symlink';
  /** The part's bytes; read it before asking for the next part. */
  content: AsyncIterable<Uint8Array>;
}

interface Part {
  field: string;
  filename: string | undefined;
  mimeType: string;
  stream: Readable;
}

/**
 * Streams the parts of a `multipart/form-data` request one at a time. The request is read only
 * as fast as part contents are consumed (busboy pauses on a full part stream), so an upload is
 * never buffered whole. Unread content of a part is discarded when the next part is requested.
 */
export async function* multipartFiles(req: IncomingMessage, signal: AbortSignal): AsyncGenerator<MultipartFile> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({
      headers: req.headers,
      preservePath: true,
      defParamCharset: 'utf8',
      highWaterMark: 1 << 20,
      fileHwm: 1 << 20,
    });
  } catch (err) {
    throw new IpfsNodeError('client', `invalid multipart body: ${(err as Error).message}`, { cause: err });
  }
  const parts: Part[] = [];
  let closed = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  bb.on('file', (field, stream, info) => {
    parts.push({ field, filename: info.filename, mimeType: info.mimeType, stream });
    notify();
  });
  bb.on('field', (field, value, info) => {
    parts.push({ field, filename: undefined, mimeType: info.mimeType, stream: Readable.from([Buffer.from(value)]) });
    notify();
  });
  bb.on('close', () => {
    closed = true;
    notify();
  });
  bb.on('error', (err) => {
    failure = new IpfsNodeError('client', `invalid multipart body: ${(err as Error).message}`, { cause: err });
    notify();
  });
  const onAbort = () => {
    failure = signal.reason;
    req.unpipe(bb);
    bb.destroy();
    for (const p of parts) p.stream.destroy();
    notify();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  req.on('error', (err) => {
    failure = err;
    notify();
  });
  req.pipe(bb);
  let previous: Part | undefined;
  try {
    while (true) {
      if (failure !== undefined) throw failure;
      const part = parts.shift();
      if (part !== undefined) {
        previous = part;
        yield toFile(part);
        if (!part.stream.readableEnded) part.stream.resume();
        continue;
      }
      if (closed) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (previous !== undefined && !previous.stream.readableEnded) previous.stream.resume();
  }
}

function toFile(part: Part): MultipartFile {
  const field = part.field.split('?')[0] ?? part.field;
  let path = part.filename ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // not percent-encoded (the Go client sends plain names): keep as sent
  }
  const type =
    part.mimeType === 'application/x-directory'
      ? 'directory'
      : part.mimeType === 'application/symlink'
        ? 'symlink'
        : 'file';
  return { field, path, type, content: part.stream };
}
