import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { contentError } from './contentError.js';

/** The most of a failed answer's body read for its message. */
const MAX_ERROR_BODY = 16 * 1024;

/**
 * `POST /api/v0/<command>?<params>` to the IPFS node, resolved with the answer's stream once it
 * answered 200 (the caller reads it; backpressure reaches the node), or rejected with the
 * {@link contentError} its failure maps to (404 for content the node does not have, 504 when
 * `signal` aborted first, 502 when the node cannot be reached). Once it answered, aborting
 * `lifetime` (default `signal`) destroys the stream: a deadline for the first byte need not cut
 * a long answer.
 *
 * @example
 * const body = await openUpstreamStream(upstream, 'cat', { arg: cid, offset: '0', length: '1024' }, signal);
 * for await (const chunk of body) res.write(chunk);
 */
export function openUpstreamStream(
  upstream: IpfsUpstream,
  command: string,
  params: Record<string, string>,
  signal: AbortSignal,
  lifetime: AbortSignal = signal,
): Promise<IncomingMessage> {
  if (signal.aborted) return Promise.reject(contentError('timeout'));
  const query = new URLSearchParams(params).toString();
  const send = upstream.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    const req = send(
      {
        protocol: upstream.url.protocol,
        hostname: upstream.url.hostname,
        port: upstream.url.port,
        method: 'POST',
        path: `${upstream.url.pathname.replace(/\/$/, '')}/api/v0/${command}?${query}`,
        headers: { ...upstream.headers, 'content-length': '0' },
        agent: upstream.agent,
      },
      (res) => {
        if (res.statusCode === 200) {
          settled = true;
          signal.removeEventListener('abort', onAbort);
          // a later abort (deadline, client gone) ends the stream too
          const stop = () => res.destroy(new Error('aborted'));
          if (lifetime.aborted) stop();
          lifetime.addEventListener('abort', stop, { once: true });
          res.once('close', () => lifetime.removeEventListener('abort', stop));
          resolve(res);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_ERROR_BODY) chunks.push(c);
          size += c.byteLength;
        });
        res.on('end', () => {
          signal.removeEventListener('abort', onAbort);
          fail(contentError('answer', res.statusCode ?? 502, Buffer.concat(chunks).toString('utf8')));
        });
        res.on('error', () => fail(contentError(signal.aborted ? 'timeout' : 'unreachable')));
      },
    );
    const onAbort = () => {
      fail(contentError('timeout'));
      req.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', () => {
      signal.removeEventListener('abort', onAbort);
      fail(contentError(signal.aborted ? 'timeout' : 'unreachable'));
    });
    req.end();
  });
}
