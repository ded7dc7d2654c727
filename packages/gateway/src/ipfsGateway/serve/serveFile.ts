import type { OutgoingHttpHeaders } from 'node:http';
import type { CID } from 'multiformats/cid';
import type { UpstreamBody } from '../../ipfs/IpfsUpstream.js';
import { contentDisposition } from './contentDisposition.js';
import { baseHeaders, type ContentRequest, IMMUTABLE, matchesIfNoneMatch, writeNotModified } from './ContentRequest.js';
import { sniffType, typeByName } from './contentTypeOf.js';
import { unixfsFileSize } from './decodeUnixfs.js';
import { type LoadedNode, RAW } from './loadNode.js';
import { openCat } from './openCat.js';
import { parseRange } from './parseRange.js';
import { contentError } from '../upstream/contentError.js';
import { readUpstream } from '../upstream/readUpstream.js';

/** Bytes read to sniff a content type. */
const SNIFF_BYTES = 512;

/**
 * A file known without its root node: its CID, its size, and either its bytes (a cached file)
 * or its whole `cat`, already open.
 */
export interface OpenedFile {
  readonly cid: CID;
  readonly size: number;
  readonly stream: UpstreamBody | undefined;
  readonly bytes: Uint8Array | undefined;
}

/**
 * Answers a UnixFS file (or a raw block read as one): `Content-Type` from `?filename=`, else the
 * path's file name, else the first 512 bytes; `Content-Length`; a single `Range` as 206 with
 * `Content-Range` (416 past the end); `ETag` (the CID) and `If-None-Match` (304);
 * `Cache-Control: immutable`; `X-Ipfs-Path`/`X-Ipfs-Roots`; `Content-Disposition` for
 * `?filename=` and `?download=true`. A file held in its one block is answered from it, and so is a
 * small file `cr.files` kept from an earlier read (a whole read of one is kept there); any other
 * is streamed from the node's `cat` of the range (offset and length: the node reads only the
 * blocks it needs; never the file whole), the first chunk giving the type to sniff; a stream that
 * stalls for `idleMs` is cut. An {@link OpenedFile} (known without its root node) is answered
 * from the cached bytes, or from its whole `cat` when that was opened and the answer is the whole
 * file (else that stream is closed unread).
 *
 * @example
 * await serveFile(cr, node, roots, 'logo.png');
 */
export async function serveFile(
  cr: ContentRequest,
  file: LoadedNode | OpenedFile,
  roots: readonly CID[],
  name: string | undefined,
): Promise<void> {
  const opened = 'stream' in file ? file.stream : undefined;
  try {
    await answerFile(cr, file, opened, roots, name);
  } finally {
    // a whole-file stream opened ahead that this answer did not take (304, a cached copy…)
    if (opened !== undefined && !opened.readableEnded) opened.destroy();
  }
}

async function answerFile(
  cr: ContentRequest,
  file: LoadedNode | OpenedFile,
  opened: UpstreamBody | undefined,
  roots: readonly CID[],
  name: string | undefined,
): Promise<void> {
  const etag = `"${file.cid.toString()}"`;
  if (matchesIfNoneMatch(cr.req.headers['if-none-match'], etag)) return writeNotModified(cr, etag);
  // the bytes at hand: a cached file's, or held in the block itself (the file is that one block)
  const inline = 'stream' in file ? file.bytes : (bytesInBlock(file) ?? cr.files?.get(file.cid));
  const size = inline?.byteLength ?? ('stream' in file ? file.size : unixfsFileSize(file.unixfs!));
  const filename = cr.query.get('filename') ?? undefined;
  let type = typeByName(filename) ?? typeByName(name);
  const headers: OutgoingHttpHeaders = {
    ...baseHeaders(cr),
    etag,
    'cache-control': IMMUTABLE,
    'accept-ranges': 'bytes',
    'x-ipfs-roots': roots.map(String).join(','),
  };
  const download = cr.query.get('download');
  if (download === 'true') headers['content-disposition'] = contentDisposition('attachment', filename ?? name);
  else if (filename !== undefined) headers['content-disposition'] = contentDisposition('inline', filename);

  // If-Range: a part only while the entity is still the one the client holds
  const ifRange = cr.req.headers['if-range'];
  const range =
    typeof ifRange !== 'string' || ifRange.replace(/^W\//, '') === etag
      ? parseRange(cr.req.headers.range, size)
      : ({ kind: 'whole' } as const);
  if (range.kind === 'unsatisfiable') {
    cr.res.writeHead(416, { ...baseHeaders(cr), 'content-range': `bytes */${size}`, 'content-length': '0' }).end();
    return;
  }
  const start = range.kind === 'part' ? range.start : 0;
  const length = range.kind === 'part' ? range.end - range.start + 1 : size;
  headers['content-length'] = String(length);
  if (range.kind === 'part') headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  const status = range.kind === 'part' ? 206 : 200;
  if (cr.head || length === 0 || inline !== undefined) {
    headers['content-type'] =
      type ?? sniffType(inline ?? (size === 0 ? new Uint8Array(0) : await firstBytes(cr, file.cid)));
    cr.res.writeHead(status, headers);
    if (!cr.head && inline !== undefined && length > 0) await cr.body.write(inline.subarray(start, start + length));
    cr.res.end();
    return;
  }
  // the node's cat of the range, opened before the status is sent (content not found in time is a
  // 504, not a cut 200); its first chunk gives the type to sniff when the range starts at 0
  const stream =
    opened !== undefined && start === 0 && length === size
      ? opened
      : await openCat(cr, { arg: file.cid.toString(), offset: String(start), length: String(length) });
  let first: Buffer | undefined;
  if (type === undefined) {
    if (start === 0) {
      first = await Promise.race([firstChunk(stream), deadline(cr.find)]).catch((err: unknown) => {
        stream.destroy();
        throw err;
      });
      type = sniffType(first);
    } else type = sniffType(await firstBytes(cr, file.cid));
  }
  headers['content-type'] = type;
  cr.res.writeHead(status, headers);
  // the whole file of a small one is kept for the next read, once all of it was sent
  const collector = start === 0 && length === size ? cr.files?.collect(file.cid, size) : undefined;
  if (first !== undefined && first.length > 0) {
    collector?.add(first);
    await cr.body.write(first);
  }
  await cr.body.pump(stream, cr.idleMs, collector && ((chunk) => collector.add(chunk)));
  collector?.done();
  cr.res.end();
}

/** A file's bytes when its node holds them all: a raw block, or a UnixFS node without links. */
function bytesInBlock(node: LoadedNode): Uint8Array | undefined {
  if (node.cid.code === RAW) return node.bytes;
  return node.links.length === 0 && node.unixfs ? node.unixfs.data : undefined;
}

/** The file's first bytes (at most 512), for sniffing its type. */
function firstBytes(cr: ContentRequest, cid: CID): Promise<Buffer> {
  return readUpstream(cr.upstream, 'cat', { arg: cid.toString(), length: String(SNIFF_BYTES) }, SNIFF_BYTES, cr.find);
}

/**
 * The stream's first chunk (empty when it ends without one), the stream left paused after it; a
 * copy when the chunk is a reused read buffer's (given back at once).
 */
function firstChunk(stream: UpstreamBody): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | undefined, chunk: Buffer) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.pause();
      if (err) reject(err);
      else resolve(chunk);
    };
    const onData = (chunk: Buffer) => {
      if (stream.release === undefined) return done(undefined, chunk);
      const copy = Buffer.from(chunk);
      stream.release(chunk);
      done(undefined, copy);
    };
    const onEnd = () => done(undefined, Buffer.alloc(0));
    const onError = (err: Error) => done(err, Buffer.alloc(0));
    // kept: an error while the stream waits paused for the body's pump must not be an uncaught one
    stream.on('error', () => undefined);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

/** Rejects with the content deadline's 504 when `signal` aborts first. */
function deadline(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_, reject) => {
    const fail = () => reject(contentError('timeout'));
    if (signal.aborted) return fail();
    signal.addEventListener('abort', fail, { once: true });
  });
  // a deadline that passes after the race was won is nobody's error
  p.catch(() => undefined);
  return p;
}
