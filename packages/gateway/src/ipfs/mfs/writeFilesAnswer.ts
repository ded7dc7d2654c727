import type { ServerResponse } from 'node:http';
import type { ServedMeter } from '../createServedMeter.js';
import { IPFS_CORS_HEADERS } from '../ipfsCors.js';

/**
 * Writes a `files/*` answer as Kubo frames it: one JSON value and a newline, or an empty 200 for
 * commands that answer nothing (mkdir, write, cp, mv, rm, chcid, chmod, touch). With a `meter`
 * (files/ls), the answer's bytes are charged first, and a refusal is thrown before anything is
 * written.
 *
 * @example
 * await writeFilesAnswer(res, { Cid: root.toString() });
 * await writeFilesAnswer(res, undefined); // empty 200
 */
export async function writeFilesAnswer(res: ServerResponse, value: unknown, meter?: ServedMeter): Promise<void> {
  const body = value === undefined ? '' : `${JSON.stringify(value)}\n`;
  const length = Buffer.byteLength(body);
  if (meter !== undefined && length > 0) {
    const refusal = meter.refuseDeclared(length);
    if (refusal !== undefined) throw refusal;
    await meter.take(length);
  }
  res.writeHead(200, {
    ...IPFS_CORS_HEADERS,
    'content-type': value === undefined ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': String(length),
  });
  res.end(body);
}
