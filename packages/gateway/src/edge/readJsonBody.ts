import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors/GatewayError.js';

/**
 * Reads a JSON-RPC request body as text, bounded in size (413) and in time (408: a client
 * that trickles its body is cut off, so slow clients cannot hold connections). Resolves
 * undefined when the client goes away.
 *
 * A body whose declared length has already arrived whole (the common case: a client writes a
 * small request in one go, and the server's parser has buffered it by the time the request is
 * admitted) is returned at once, as a string, without a timer, listeners or a promise; the
 * caller awaits only what is still on its way.
 *
 * @example
 * const read = readJsonBody(req, { maxBytes: 5 << 20, timeoutMs: 10_000 });
 * const body = typeof read === 'string' ? read : await read;
 */
export function readJsonBody(
  req: IncomingMessage,
  options: { maxBytes: number; timeoutMs: number },
): string | Promise<string | undefined> {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (length > options.maxBytes) return Promise.reject(tooLarge(options.maxBytes));
    // all of it is in the stream's buffer: the parser allows no more body than the declared
    // length (and refuses a Content-Length beside a Transfer-Encoding), so nothing else can come
    if (length > 0 && req.readableLength === length && req.readableFlowing !== true) {
      const whole = req.read() as Buffer | null;
      if (whole !== null && whole.byteLength === length) return whole.toString('utf8');
      if (whole !== null) req.unshift(whole);
    }
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
