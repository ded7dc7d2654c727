import type { ServerResponse } from 'node:http';
import type { ServedMeter } from './createServedMeter.js';
import { IPFS_CORS_HEADERS } from './ipfsCors.js';

/** Bytes written between two meter takes. */
const CHUNK = 64 * 1024;

/**
 * An NDJSON answer the gateway builds itself (`X-Chunked-Output: 1`), metered as a proxied
 * answer of content is: refused before it starts when longer than one answer may carry, then
 * written a chunk at a time as the meter allows (paced; a stop resets the connection, as the
 * proxy does for an answer cut at a limit).
 *
 * @example
 * await writeMeteredNdjson(res, refs.map((r) => ({ Ref: r, Err: '' })), meter);
 */
export async function writeMeteredNdjson(
  res: ServerResponse,
  values: readonly unknown[],
  meter: ServedMeter | undefined,
): Promise<void> {
  const body = Buffer.from(values.map((v) => `${JSON.stringify(v)}\n`).join(''));
  const refusal = meter?.refuseDeclared(body.byteLength);
  if (refusal !== undefined) throw refusal;
  res.writeHead(200, {
    ...IPFS_CORS_HEADERS,
    'content-type': 'application/json',
    'x-chunked-output': '1',
    'content-length': String(body.byteLength),
  });
  for (let at = 0; at < body.byteLength; at += CHUNK) {
    const chunk = body.subarray(at, at + CHUNK);
    const wait = meter?.take(chunk.byteLength);
    if (wait !== undefined) {
      try {
        await wait;
      } catch {
        res.destroy();
        return;
      }
    }
    if (res.destroyed) return;
    res.write(chunk);
  }
  res.end();
}
