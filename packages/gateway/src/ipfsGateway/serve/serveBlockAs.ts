import type { OutgoingHttpHeaders } from 'node:http';
import { GatewayError } from '../../errors/GatewayError.js';
import { readUpstream } from '../upstream/readUpstream.js';
import { contentDisposition } from './contentDisposition.js';
import { baseHeaders, type ContentRequest, IMMUTABLE, matchesIfNoneMatch, writeNotModified } from './ContentRequest.js';
import type { LoadedNode } from './loadNode.js';
import type { CodecFormat } from './negotiateFormat.js';
import { DAG_PB } from './parseRootCid.js';
import { parseRange } from './parseRange.js';

/** Multicodec codes of the codecs the gateway names. */
const DAG_CBOR = 0x71;
const DAG_JSON = 0x0129;
const JSON_CODEC = 0x0200;
const CBOR = 0x51;

/** The largest converted document (DAG-JSON of a large DAG-CBOR node). */
const MAX_CONVERTED = 8 * 1024 * 1024;

const TYPES: Readonly<Record<CodecFormat, string>> = {
  'dag-json': 'application/vnd.ipld.dag-json',
  'dag-cbor': 'application/vnd.ipld.dag-cbor',
  json: 'application/json',
  cbor: 'application/cbor',
};

/** The codec whose bytes already are the asked format, as they are (no conversion). */
const NATIVE: Readonly<Record<CodecFormat, readonly number[]>> = {
  'dag-json': [DAG_JSON],
  'dag-cbor': [DAG_CBOR],
  json: [JSON_CODEC, DAG_JSON],
  cbor: [CBOR, DAG_CBOR],
};

/**
 * Answers one block as itself (`format=raw`: `application/vnd.ipld.raw`, as an attachment
 * `<cid>.bin`, a single `Range` served as 206) or in a codec's form (`format=dag-json|dag-cbor|
 * json|cbor`): a block already in that codec is sent as it is, DAG-PB, DAG-CBOR and DAG-JSON are
 * converted by the node's `dag/get` (another codec to JSON or CBOR is a 406). Both with
 * `X-Content-Type-Options: nosniff`, `ETag` `"<cid>.<format>"` and `Cache-Control: immutable`.
 *
 * @example
 * await serveBlockAs(cr, node, 'raw');
 */
export async function serveBlockAs(cr: ContentRequest, node: LoadedNode, format: 'raw' | CodecFormat): Promise<void> {
  const etag = `"${node.cid.toString()}.${format}"`;
  if (matchesIfNoneMatch(cr.req.headers['if-none-match'], etag)) return writeNotModified(cr, etag);
  const headers: OutgoingHttpHeaders = {
    ...baseHeaders(cr),
    etag,
    'cache-control': IMMUTABLE,
    'x-content-type-options': 'nosniff',
  };
  let body: Uint8Array;
  if (format === 'raw') {
    body = node.bytes;
    headers['content-type'] = 'application/vnd.ipld.raw';
    headers['content-disposition'] = contentDisposition(
      'attachment',
      cr.query.get('filename') ?? `${node.cid.toString()}.bin`,
    );
    headers['accept-ranges'] = 'bytes';
  } else {
    headers['content-type'] = TYPES[format];
    if (NATIVE[format].includes(node.cid.code)) body = node.bytes;
    else if (node.cid.code === DAG_PB || node.cid.code === DAG_CBOR || node.cid.code === DAG_JSON) {
      body = await readUpstream(
        cr.upstream,
        'dag/get',
        {
          arg: node.cid.toString(),
          'output-codec': format === 'json' || format === 'dag-json' ? 'dag-json' : 'dag-cbor',
        },
        MAX_CONVERTED,
        cr.find,
      );
    } else {
      throw new GatewayError(
        'INVALID_REQUEST',
        `format=${format}: a block of codec 0x${node.cid.code.toString(16)} has no ${format} form; ask ?format=raw`,
        { httpStatus: 406 },
      );
    }
    const filename = cr.query.get('filename');
    if (cr.query.get('download') === 'true') {
      headers['content-disposition'] = contentDisposition(
        'attachment',
        filename ?? `${node.cid.toString()}.${format === 'dag-json' || format === 'json' ? 'json' : 'cbor'}`,
      );
    } else if (filename !== null) headers['content-disposition'] = contentDisposition('inline', filename);
  }
  const range = format === 'raw' ? parseRange(cr.req.headers.range, body.length) : ({ kind: 'whole' } as const);
  if (range.kind === 'unsatisfiable') {
    cr.res
      .writeHead(416, { ...baseHeaders(cr), 'content-range': `bytes */${body.length}`, 'content-length': '0' })
      .end();
    return;
  }
  let status = 200;
  if (range.kind === 'part') {
    status = 206;
    headers['content-range'] = `bytes ${range.start}-${range.end}/${body.length}`;
    body = body.subarray(range.start, range.end + 1);
  }
  headers['content-length'] = String(body.length);
  cr.res.writeHead(status, headers);
  if (!cr.head && body.length > 0) await cr.body.write(body);
  cr.res.end();
}
