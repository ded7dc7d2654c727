import type { IncomingMessage, ServerResponse } from 'node:http';
import { IPFS_CORS_HEADERS } from './ipfsCors.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { objectData } from './objectData.js';
import { objectGet } from './objectGet.js';
import { objectLinks } from './objectLinks.js';
import { objectPut } from './objectPut.js';
import { objectStat } from './objectStat.js';
import { readRequestBody } from './readRequestBody.js';

/** The object/* commands the gateway answers itself. */
export type ObjectCommandName = 'object/get' | 'object/put' | 'object/stat' | 'object/data' | 'object/links';

/** object/put input: one node, well under Kubo's 2 MiB block limit plus multipart framing. */
const MAX_OBJECT_PUT_BODY = 2 * 1024 * 1024 + 64 * 1024;

/**
 * Runs one object/* command over the upstream and writes Kubo's answer (JSON, or a byte stream
 * for object/data). Errors are thrown (an `IpfsCommandError` carries status and message) for
 * the route to write. `beforeStore` limits what object/put stores; `onPinned` records its pin.
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
    /** Runs after object/put stored and pinned (`pin=true`) a node, before the answer. */
    onPinned?: (cid: string) => Promise<void>;
  },
): Promise<void> {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const signal = controller.signal;
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
    case 'object/put': {
      const body = await readRequestBody(req, Math.min(options.maxRequestBytes, MAX_OBJECT_PUT_BODY));
      options.beforeStore?.(body.byteLength);
      const put = await objectPut(upstream, params, body, req.headers['content-type'], signal);
      if (params.get('pin') === 'true') await options.onPinned?.(put.answer.Hash);
      value = put.answer;
      break;
    }
  }
  const text = `${JSON.stringify(value)}\n`;
  res.writeHead(200, {
    ...IPFS_CORS_HEADERS,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
