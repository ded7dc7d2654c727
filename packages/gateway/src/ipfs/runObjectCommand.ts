import type { IncomingMessage, ServerResponse } from 'node:http';
import { IPFS_CORS_HEADERS } from './ipfsCors.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { objectData } from './objectData.js';
import { objectGet } from './objectGet.js';
import { firstMultipartPart } from './firstMultipartPart.js';
import { objectLinks } from './objectLinks.js';
import { objectNew } from './objectNew.js';
import { type ObjectPatchName, objectPatch } from './objectPatch.js';
import { objectPut } from './objectPut.js';
import { objectStat } from './objectStat.js';
import { readRequestBody } from './readRequestBody.js';
import { type EncodedDagPbNode, storeDagPbNodes } from './storeDagPbNodes.js';
import { discardRequestBody } from './writeIpfsError.js';

/** The object/* commands the gateway answers itself. */
export type ObjectCommandName =
  | 'object/get'
  | 'object/put'
  | 'object/stat'
  | 'object/data'
  | 'object/links'
  | 'object/new'
  | ObjectPatchName;

/** object/put input: one node, well under Kubo's 2 MiB block limit plus multipart framing. */
const MAX_OBJECT_PUT_BODY = 2 * 1024 * 1024 + 64 * 1024;

/**
 * Runs one object/* command over the upstream and writes Kubo's answer (JSON, or a byte stream
 * for object/data). Errors are thrown (an `IpfsCommandError` carries status and message) for
 * the route to write. `beforeStore` limits what object/put, object/new and object/patch/* store
 * (all their new blocks' bytes, before any is stored); `onStored` records it.
 *
 * @example
 * await runObjectCommand('object/get', req, res, upstream, params, {});
 */
export async function runObjectCommand(
  name: ObjectCommandName,
  req: IncomingMessage,
  res: ServerResponse,
  upstream: IpfsUpstream,
  params: URLSearchParams,
  options: {
    maxRequestBytes: number;
    beforeStore?: (bytes: number) => void;
    /** Runs after object/put stored a node (and pinned it with `pin=true`), before the answer. */
    onStored?: (stored: { cid: string; bytes: number; pinned: boolean }) => Promise<void>;
  },
): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const signal = controller.signal;
  // new nodes: every block's bytes are admitted before any is stored; nothing is pinned
  const store = async (nodes: readonly EncodedDagPbNode[]): Promise<{ Hash: string }> => {
    const root = nodes.at(-1)!;
    options.beforeStore?.(nodes.reduce((sum, n) => sum + n.bytes.byteLength, 0));
    await storeDagPbNodes(upstream, nodes, { signal });
    await options.onStored?.({ cid: root.cid.toString(), bytes: root.bytes.byteLength, pinned: false });
    return { Hash: root.cid.toString() };
  };
  let value: unknown;
  switch (name) {
    case 'object/get':
      value = await objectGet(upstream, params, signal);
      break;
    case 'object/stat':
      value = await objectStat(upstream, params, signal);
      break;
    case 'object/links':
      value = await objectLinks(upstream, params, signal);
      break;
    case 'object/data': {
      const data = await objectData(upstream, params, signal);
      res.writeHead(200, {
        ...IPFS_CORS_HEADERS,
        'content-type': 'text/plain',
        'x-stream-output': '1',
        'content-length': String(data.byteLength),
      });
      res.end(data);
      return;
    }
    case 'object/new':
      value = await store([await objectNew(params)]);
      break;
    case 'object/patch/add-link':
    case 'object/patch/rm-link':
      discardRequestBody(req);
      value = await store((await objectPatch(upstream, name, params, undefined, signal)).nodes);
      break;
    case 'object/patch/set-data':
    case 'object/patch/append-data': {
      const body = await readRequestBody(req, Math.min(options.maxRequestBytes, MAX_OBJECT_PUT_BODY));
      const data = firstMultipartPart(body, req.headers['content-type']);
      value = await store((await objectPatch(upstream, name, params, data, signal)).nodes);
      break;
    }
    case 'object/put': {
      const body = await readRequestBody(req, Math.min(options.maxRequestBytes, MAX_OBJECT_PUT_BODY));
      options.beforeStore?.(body.byteLength);
      const put = await objectPut(upstream, params, body, req.headers['content-type'], signal);
      await options.onStored?.({ cid: put.answer.Hash, bytes: put.storedBytes, pinned: params.get('pin') === 'true' });
      value = put.answer;
      break;
    }
  }
  if (name === 'object/new') discardRequestBody(req);
  const text = `${JSON.stringify(value)}\n`;
  res.writeHead(200, {
    ...IPFS_CORS_HEADERS,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
