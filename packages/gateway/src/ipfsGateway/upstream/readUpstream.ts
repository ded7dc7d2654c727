import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { GatewayError } from '../../errors/GatewayError.js';
import { openUpstreamStream } from './openUpstreamStream.js';

/**
 * A small answer of the IPFS node, whole (a block, a directory's listing page, a dag-json
 * document): {@link openUpstreamStream}, read to its end, refused past `maxBytes` (the answer is
 * then cut and a 502 thrown: a block never exceeds the node's own block limit).
 *
 * @example
 * const block = await readUpstream(upstream, 'block/get', { arg: cid }, 4 << 20, signal);
 */
export async function readUpstream(
  upstream: IpfsUpstream,
  command: string,
  params: Record<string, string>,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const body = await openUpstreamStream(upstream, command, params, signal);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        body.destroy();
        throw new GatewayError('UPSTREAM_UNAVAILABLE', `the IPFS node's answer is over ${maxBytes} bytes`, {
          httpStatus: 502,
        });
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof GatewayError) throw err;
    throw new GatewayError(
      'UPSTREAM_UNAVAILABLE',
      signal.aborted ? 'the content was not found within the gateway’s deadline' : 'the IPFS node stopped answering',
      { httpStatus: signal.aborted ? 504 : 502, retryAfterSeconds: signal.aborted ? 30 : 5 },
    );
  }
  const trailerError = body.trailers['x-stream-error'];
  if (trailerError) {
    throw new GatewayError('UPSTREAM_UNAVAILABLE', `the IPFS node failed: ${trailerError.slice(0, 300)}`, {
      httpStatus: 502,
    });
  }
  return Buffer.concat(chunks);
}
