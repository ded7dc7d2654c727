import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors/GatewayError.js';

/**
 * Reads a JSON-RPC request body as text, bounded in size (413) and in time (408: a client
 * that trickles its body is cut off, so slow clients cannot hold connections). Resolves
 * undefined when the client goes away.
 *
 * @example
 * const body = await readJsonBody(req, { maxBytes: 5 << 20, timeoutMs: 10_000 });
 */
export function readJsonBody(
  req: IncomingMessage,
  options: { maxBytes: number; timeoutMs: number },
): Promise<string | undefined> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > options.maxBytes) {
    return Promise.reject(tooLarge(options.maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: GatewayError | undefined, value?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(value);
    };
    const timer = setTimeout(
      () =>
        finish(
          new GatewayError(
            'REQUEST_TIMEOUT',
            `request timeout: the body did not arrive within ${options.timeoutMs} ms`,
          ),
        ),
      options.timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > options.maxBytes) return finish(tooLarge(options.maxBytes));
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish(undefined, chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    const onClose = () => finish(undefined, undefined);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError('PAYLOAD_TOO_LARGE', `request body too large: the limit is ${maxBytes} bytes`);
}
