import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { IpfsUpstream } from './IpfsUpstream.js';

/** A small buffered upstream answer. */
export interface UpstreamAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The `X-Stream-Error` trailer, when the upstream failed after it started answering. */
  readonly streamError: string | undefined;
}

/** Thrown when the upstream cannot be reached or its answer is larger than allowed. */
export class UpstreamCallError extends Error {
  override readonly name = 'UpstreamCallError';
}

/**
 * One buffered call to the upstream (for answers the gateway builds itself, e.g. object/*):
 * POST `/api/v0/<command>` with query `params`, an optional multipart `file` part, and a cap on
 * the answer's size.
 *
 * @example
 * const a = await callUpstream(upstream, 'block/get', { arg: cid }, { maxBytes: 4 << 20 });
 */
export function callUpstream(
  upstream: IpfsUpstream,
  command: string,
  params: Record<string, string> | URLSearchParams,
  options: {
    file?: Uint8Array;
    /** A multipart body built by the caller (several parts), sent as it is, instead of `file`. */
    multipart?: { body: Buffer; boundary: string };
    maxBytes: number;
    signal?: AbortSignal;
  },
): Promise<UpstreamAnswer> {
  const query = new URLSearchParams(params).toString();
  const boundary = options.multipart?.boundary ?? `nodegate-${Math.random().toString(36).slice(2)}`;
  const body =
    options.multipart !== undefined
      ? options.multipart.body
      : options.file === undefined
        ? undefined
        : Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\nContent-Type: application/octet-stream\r\n\r\n`,
            ),
            options.file,
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]);
  const headers: Record<string, string> = {
    ...upstream.headers,
    'content-length': String(body?.byteLength ?? 0),
  };
  if (body) headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  const send = upstream.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: upstream.url.protocol,
        hostname: upstream.url.hostname,
        port: upstream.url.port,
        method: 'POST',
        path: `${upstream.url.pathname.replace(/\/$/, '')}/api/v0/${command}${query ? `?${query}` : ''}`,
        headers,
        agent: upstream.agent,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.byteLength;
          if (size > options.maxBytes) {
            req.destroy(new UpstreamCallError(`upstream answer larger than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 502,
            headers: res.headers,
            body: Buffer.concat(chunks),
            streamError: res.trailers['x-stream-error'],
          }),
        );
        res.on('error', (err) => reject(new UpstreamCallError('upstream IPFS node unavailable', { cause: err })));
      },
    );
    req.setTimeout(upstream.idleTimeoutMs, () => req.destroy(new Error('upstream idle timeout')));
    req.on('error', (err) =>
      reject(
        err instanceof UpstreamCallError
          ? err
          : new UpstreamCallError('upstream IPFS node unavailable', { cause: err }),
      ),
    );
    req.end(body);
  });
}
