import {
  type Agent as HttpAgent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { IPFS_CORS_HEADERS } from './ipfsCors.js';
import { writeIpfsError } from './writeIpfsError.js';

/** Where and how to proxy one request. */
export interface ProxyTarget {
  /** The upstream's base URL (`http://host:port`, commands under `/api/v0/`). */
  readonly upstream: URL;
  readonly agent: HttpAgent;
  /** Path and query sent upstream (`/api/v0/add?pin=false`). */
  readonly path: string;
  /** Extra headers for the upstream (e.g. its own credentials). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Socket idle timeout towards the upstream. */
  readonly idleTimeoutMs: number;
  /**
   * When the upstream ends with an `X-Stream-Error` trailer, reset the client connection instead
   * of ending the answer (clients that ignore trailers then notice; the trailer is not delivered).
   */
  readonly resetOnStreamError?: boolean;
  /** Largest request body accepted (413 above it). */
  readonly maxRequestBytes: number;
  /**
   * For commands that store bytes: how many more bytes this key may upload (413 above it),
   * and a callback run with the body size once the upstream answered 200 without a stream
   * error (before the client sees the end of the answer).
   */
  readonly storage?: {
    readonly remainingBytes: number;
    readonly limitMessage: string;
    readonly onStored: (bytes: number) => Promise<void>;
  };
}

/** Hop-by-hop headers never forwarded (RFC 9110 §7.6.1), plus the client's credentials. */
const DROP_REQUEST = new Set([
  'host',
  'authorization',
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'upgrade',
  'expect',
  'transfer-encoding',
]);
const DROP_RESPONSE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

/**
 * Streams a request to the Kubo-compatible upstream and its answer back, without buffering
 * either body: status, headers and trailers (`X-Stream-Error`) are carried across. An upstream
 * that resets mid-answer resets the client connection too; a client that goes away aborts the
 * upstream request. A transport failure before any answer byte becomes a 502 in Kubo's shape
 * (the upstream URL is never shown). Request bodies over the size or storage limit are cut
 * off and answered 413 (when the answer has not started).
 *
 * @example
 * proxyToUpstream(req, res, { upstream: new URL(url), agent, path: '/api/v0/cat?arg=Qm…', idleTimeoutMs: 300_000, maxRequestBytes: 1 << 30 });
 */
export function proxyToUpstream(req: IncomingMessage, res: ServerResponse, target: ProxyTarget): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers as IncomingHttpHeaders)) {
    if (value !== undefined && !DROP_REQUEST.has(name)) headers[name] = value;
  }
  Object.assign(headers, target.headers);
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) headers['content-length'] = '0';

  const send = target.upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  const up = send({
    protocol: target.upstream.protocol,
    hostname: target.upstream.hostname,
    port: target.upstream.port,
    method: 'POST',
    path: target.path,
    headers,
    agent: target.agent,
  });
  up.setTimeout(target.idleTimeoutMs, () => up.destroy(new Error('upstream idle timeout')));

  /** Set when the gateway itself ended the exchange (a limit, or the client went away). */
  let cut = false;
  let uploaded = 0;
  const limit = Math.min(target.maxRequestBytes, target.storage ? target.storage.remainingBytes : Infinity);

  res.on('close', () => {
    if (!res.writableFinished) {
      cut = true;
      up.destroy();
    }
  });

  up.on('error', () => {
    if (cut) return;
    cut = true;
    if (!res.headersSent) {
      writeIpfsError(req, res, 502, 'upstream IPFS node unavailable', 0);
    } else {
      res.destroy();
    }
  });

  up.on('response', (upRes) => {
    if (cut) {
      upRes.resume();
      return;
    }
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upRes.headers)) {
      if (value !== undefined && !DROP_RESPONSE.has(name)) out[name] = value;
    }
    Object.assign(out, IPFS_CORS_HEADERS);
    // trailers need chunked encoding: not for HTTP/1.0 clients, nor with a fixed length
    if (req.httpVersion === '1.0' || out['content-length'] !== undefined) delete out.trailer;
    const trailersAllowed = out.trailer !== undefined;
    res.writeHead(upRes.statusCode ?? 502, out);
    relay(upRes, res);
    upRes.on('close', () => {
      if (!upRes.complete) {
        // the upstream reset mid-answer: reset the client too, so trailer-blind clients notice
        cut = true;
        res.destroy();
      }
    });
    upRes.on('end', () => {
      const trailers: Record<string, string> = {};
      for (const [name, value] of Object.entries(upRes.trailers)) {
        if (value !== undefined) trailers[name] = value;
      }
      const finish = () => {
        if (target.resetOnStreamError && trailers['x-stream-error'] !== undefined) {
          // close without the last chunk, after what was written is flushed: the body is incomplete
          const socket = res.socket;
          if (socket) socket.destroySoon();
          else res.destroy();
          return;
        }
        if (trailersAllowed && Object.keys(trailers).length > 0) res.addTrailers(trailers);
        res.end();
      };
      const stored = target.storage;
      if (stored && upRes.statusCode === 200 && trailers['x-stream-error'] === undefined && !cut) {
        stored.onStored(uploaded).then(finish, () => res.destroy());
      } else {
        finish();
      }
    });
  });

  req.on('data', (chunk: Buffer) => {
    if (cut) return;
    uploaded += chunk.byteLength;
    if (uploaded > limit) {
      cut = true;
      up.destroy();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const storageHit = target.storage !== undefined && uploaded > target.storage.remainingBytes;
      const message = storageHit
        ? target.storage!.limitMessage
        : `request body too large: the limit is ${target.maxRequestBytes} bytes`;
      writeIpfsError(req, res, 413, message, 1);
      return;
    }
    if (!up.write(chunk) && up.writableLength >= RELAY_BUFFER) {
      req.pause();
      up.once('drain', () => req.resume());
    }
  });
  req.on('end', () => {
    if (!cut) up.end();
  });
}

/**
 * How much may wait in a socket's write buffer before the source is paused. Larger than
 * Node's 16 KiB default: pausing at every 64 KiB read costs a round of scheduling per read when
 * the client, the gateway and the upstream share a few cores; bounded, so memory stays small.
 */
const RELAY_BUFFER = 1024 * 1024;

/** Copies a response body (not its end) with backpressure at {@link RELAY_BUFFER}. */
function relay(from: IncomingMessage, to: ServerResponse): void {
  from.on('data', (chunk: Buffer) => {
    if (!to.write(chunk) && to.writableLength >= RELAY_BUFFER) {
      from.pause();
      to.once('drain', () => from.resume());
    }
  });
}
