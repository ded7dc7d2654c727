import { createHash } from 'node:crypto';
import { GatewayError } from '../../errors/GatewayError.js';
import { encodeCarBlock, encodeCarHeader } from './carFraming.js';
import { contentDisposition } from './contentDisposition.js';
import { baseHeaders, type ContentRequest, IMMUTABLE, matchesIfNoneMatch, writeNotModified } from './ContentRequest.js';
import { unixfsFileSize } from './decodeUnixfs.js';
import { RAW } from './loadNode.js';
import type { CarRequest } from './negotiateFormat.js';
import { blockKey, IDENTITY } from './parseRootCid.js';
import type { Resolution } from './resolveContentPath.js';
import { walkDag } from './walkDag.js';

/**
 * The ETag of a CAR answer: weak (a CAR is one of many valid serialisations), made of the root,
 * the path, and every parameter that changes which blocks it holds.
 */
export function carEtag(cr: ContentRequest, car: CarRequest): string {
  const params = JSON.stringify([cr.segments, car.scope, car.entityBytes ?? null, car.dups, car.order, car.version]);
  const digest = createHash('sha256').update(params).digest('base64url').slice(0, 16);
  return `W/"${cr.root.toString()}.car.${digest}"`;
}

/**
 * Answers a CAR (trustless gateway spec): `Content-Type: application/vnd.ipld.car; version=1;
 * order=dfs; dups=n|y`, then the header (the request's root as its one root), the blocks that
 * verify the path, and the terminal's blocks by `dag-scope` (`block`, `entity`, `all`), depth
 * first, `entity-bytes` choosing a file's blocks (a range wholly past the file's end is a 400, a
 * range of no bytes sends the root block only). Once the first block is sent the status is 200:
 * a block missing later ends the stream (the client sees an incomplete CAR).
 *
 * @example
 * await serveCar(cr, resolution, { version: 1, order: 'dfs', dups: false, scope: 'all', entityBytes: undefined });
 */
export async function serveCar(cr: ContentRequest, resolution: Resolution, car: CarRequest): Promise<void> {
  const etag = carEtag(cr, car);
  if (matchesIfNoneMatch(cr.req.headers['if-none-match'], etag)) return writeNotModified(cr, etag);
  const terminal = resolution.terminal;
  let scope = car.scope;
  let range: { start: number; end: number } | undefined;
  const isFile = terminal.cid.code === RAW || terminal.unixfs?.type === 'file' || terminal.unixfs?.type === 'raw';
  if (car.entityBytes !== undefined && isFile) {
    const size = terminal.cid.code === RAW ? terminal.bytes.length : unixfsFileSize(terminal.unixfs!);
    const at = (n: number) => (n < 0 ? Math.max(0, size + n) : n);
    const start = at(car.entityBytes.from);
    const end = car.entityBytes.to === '*' ? size - 1 : Math.min(size - 1, at(car.entityBytes.to));
    if (size > 0 && start >= size) {
      throw new GatewayError('INVALID_REQUEST', `entity-bytes: the range starts past the end (${size} bytes)`, {
        httpStatus: 400,
      });
    }
    if (end < start) scope = 'block';
    else range = { start, end };
  }
  const headers = {
    ...baseHeaders(cr),
    'content-type': `application/vnd.ipld.car; version=1; order=dfs; dups=${car.dups ? 'y' : 'n'}`,
    'content-disposition': contentDisposition('attachment', cr.query.get('filename') ?? `${cr.root.toString()}.car`),
    'x-content-type-options': 'nosniff',
    'accept-ranges': 'none',
    etag,
    'cache-control': IMMUTABLE,
    'x-ipfs-roots': resolution.roots.map(String).join(','),
  };
  cr.res.writeHead(200, headers);
  if (cr.head) {
    cr.res.end();
    return;
  }
  await cr.body.write(encodeCarHeader(cr.root));
  const seen = new Set<string>();
  const emit = async (cid: typeof cr.root, bytes: Uint8Array) => {
    if (cid.multihash.code === IDENTITY) return;
    await cr.body.write(encodeCarBlock(cid, bytes));
  };
  for (const b of resolution.pathBlocks) {
    const key = blockKey(b.cid);
    if (!car.dups && seen.has(key)) continue;
    seen.add(key);
    await emit(b.cid, b.bytes);
  }
  if (scope === 'block') {
    if (car.dups || !seen.has(blockKey(terminal.cid))) await emit(terminal.cid, terminal.bytes);
  } else {
    await walkDag(terminal, {
      upstream: cr.upstream,
      scope,
      range,
      dups: car.dups,
      seen,
      client: cr.client,
      idleMs: cr.idleMs,
      emit,
    });
  }
  cr.res.end();
}
