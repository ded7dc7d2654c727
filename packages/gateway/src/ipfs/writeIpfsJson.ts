import type { ServerResponse } from 'node:http';
import { IPFS_CORS_HEADERS } from './ipfsCors.js';

/**
 * A 200 answer the gateway builds itself, framed as Kubo frames it: one JSON value, or (for
 * `stream`) NDJSON values with `X-Chunked-Output: 1`.
 *
 * @example
 * writeIpfsJson(res, [{ Pins: ['QmZULk…'] }]);
 * writeIpfsJson(res, lines, { stream: true });
 */
export function writeIpfsJson(
  res: ServerResponse,
  values: readonly unknown[],
  options: { stream?: boolean } = {},
): void {
  const body = values.map((v) => `${JSON.stringify(v)}\n`).join('');
  res.writeHead(200, {
    ...IPFS_CORS_HEADERS,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...(options.stream ? { 'x-chunked-output': '1' } : {}),
  });
  res.end(body);
}
