import type { IncomingMessage } from 'node:http';
import { IpfsCommandError } from './IpfsCommandError.js';

/**
 * Buffers a (small) request body, failing with a 413 {@link IpfsCommandError} past `maxBytes`.
 *
 * @example
 * const body = await readRequestBody(req, 2 * 1024 * 1024);
 */
export function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.byteLength;
      if (size > maxBytes) {
        req.off('data', onData);
        reject(new IpfsCommandError(413, `request body too large: the limit is ${maxBytes} bytes`, 1));
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
