import {
  type Agent as HttpAgent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { StringDecoder } from 'node:string_decoder';
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
   * For commands that store bytes: asked before each body chunk is forwarded whether the key may
   * store it (and counts it when it may); a refused chunk is never forwarded and answers 413.
   */
  readonly storage?: {
    admit(bytes: number): boolean;
    readonly limitMessage: string;
  };
  /**
   * Looks at each request body chunk before it is forwarded; a returned problem aborts the
   * upstream request and answers 400 (Kubo JSON) when the answer has not started.
   */
  readonly inspectBody?: (chunk: Buffer) => string | undefined;
  /** Relay the upstream's answer only once the whole request body was read (and inspected). */
  readonly holdAnswerUntilBodyEnd?: boolean;
  /**
   * Sees the lines of a 200 answer and runs before its end (recording pins); the answer's last
   * chunk is held back until `finish` succeeded, so no client has the whole answer before.
   */
  readonly observe?: AnswerObserver;
  /**
   * Meters a 200 answer's bytes: a declared length (`X-Content-Length`, `Content-Length`) over
   * its bound is refused before the answer starts; each chunk waits for `take` (pacing) and a
   * rejected `take` resets the client connection (the answer was cut at a limit).
   */
  readonly meter?: AnswerMeter;
}

/** The part of a served-bytes meter the proxy uses. */
export interface AnswerMeter {
  refuseDeclared(
    length: number,
  ): { status: number; message: string; code: 0 | 1; headers: Readonly<Record<string, string>> } | undefined;
  take(bytes: number): Promise<void> | undefined;
}

/** Watches a 200 NDJSON/JSON answer as it is relayed. */
export interface AnswerObserver {
  /** Every complete line of the answer (also the last one, without a newline). */
  line(line: string): void;
  /** When true the answer's own body is not relayed: `finish`'s text is sent instead. */
  readonly replace?: boolean;
  /**
   * Runs once the answer ended without a stream error, before the client sees the end (a
   * failure resets the client connection); returns the text to send last when `replace`.
   */
  finish(): Promise<string | undefined>;
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

  let bodyEnded = false;
  let heldAnswer: IncomingMessage | undefined;

  const answer = (upRes: IncomingMessage) => {
    if (cut) {
      upRes.resume();
      return;
    }
    const observe = upRes.statusCode === 200 ? target.observe : undefined;
    const meter = upRes.statusCode === 200 ? target.meter : undefined;
    const declared = Number(upRes.headers['x-content-length'] ?? upRes.headers['content-length']);
    const refusal = meter?.refuseDeclared(declared);
    if (refusal !== undefined) {
      cut = true;
      up.destroy();
      writeIpfsError(req, res, refusal.status, refusal.message, refusal.code, { ...refusal.headers });
      return;
    }
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(upRes.headers)) {
      if (value !== undefined && !DROP_RESPONSE.has(name)) out[name] = value;
    }
    Object.assign(out, IPFS_CORS_HEADERS);
    // trailers need chunked encoding: not for HTTP/1.0 clients, nor with a fixed length
    if (req.httpVersion === '1.0' || out['content-length'] !== undefined) delete out.trailer;
    if (observe?.replace) {
      delete out['content-length'];
      delete out['x-content-length'];
    }
    const trailersAllowed = out.trailer !== undefined;
    res.writeHead(upRes.statusCode ?? 502, out);
    const decoder = observe ? new StringDecoder('utf8') : undefined;
    let partial = '';
    const seeLines = (text: string, last: boolean) => {
      partial += text;
      let nl = partial.indexOf('\n');
      while (nl >= 0) {
        const line = partial.slice(0, nl).trim();
        if (line !== '') observe!.line(line);
        partial = partial.slice(nl + 1);
        nl = partial.indexOf('\n');
      }
      if (last && partial.trim() !== '') observe!.line(partial.trim());
    };
    if (observe) {
      upRes.on('data', (chunk: Buffer) => seeLines(decoder!.write(chunk), false));
    }
    // an observed answer keeps its last chunk back until its pins are recorded: whatever the
    // framing (Content-Length, chunked, close), the client cannot have the whole answer before
    const stopAtLimit = () => {
      // a served-bytes bound was reached (or the client left while paced): the answer is cut,
      // and a reset tells every client, trailer-blind or not, that it is incomplete
      if (cut) return;
      cut = true;
      up.destroy();
      res.destroy();
    };
    const relayed = observe?.replace
      ? undefined
      : relay(upRes, res, observe !== undefined, meter ? (n) => meter.take(n) : undefined, stopAtLimit);
    const releaseHeld = relayed?.releaseHeld;
    if (observe?.replace) upRes.resume();
    upRes.on('close', () => {
      if (!upRes.complete) {
        // the upstream reset mid-answer: reset the client too, so trailer-blind clients notice
        cut = true;
        res.destroy();
      }
    });
    // a chunk waiting for the meter is written before the answer ends ('end' comes even while paused)
    upRes.on('end', () => {
      const idle = relayed?.idle();
      if (idle === undefined) ended();
      else idle.then(() => (cut ? undefined : ended()));
    });
    const ended = () => {
      const trailers: Record<string, string> = {};
      for (const [name, value] of Object.entries(upRes.trailers)) {
        if (value !== undefined) trailers[name] = value;
      }
      const finish = () => {
        releaseHeld?.();
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
      if (observe && trailers['x-stream-error'] === undefined && !cut) {
        seeLines(decoder!.end(), true);
        observe.finish().then(
          (text) => {
            if (observe.replace && text) res.write(text);
            finish();
          },
          () => res.destroy(),
        );
      } else {
        finish();
      }
    };
  };

  up.on('response', (upRes) => {
    if (target.holdAnswerUntilBodyEnd && !bodyEnded) {
      heldAnswer = upRes;
      return;
    }
    answer(upRes);
  });

  req.on('data', (chunk: Buffer) => {
    if (cut) return;
    const problem = target.inspectBody?.(chunk);
    if (problem !== undefined) {
      cut = true;
      up.destroy();
      if (res.headersSent) res.destroy();
      else writeIpfsError(req, res, 400, problem, 1);
      return;
    }
    uploaded += chunk.byteLength;
    const tooLarge = uploaded > target.maxRequestBytes;
    if (tooLarge || (target.storage !== undefined && !target.storage.admit(chunk.byteLength))) {
      cut = true;
      up.destroy();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const message = tooLarge
        ? `request body too large: the limit is ${target.maxRequestBytes} bytes`
        : target.storage!.limitMessage;
      writeIpfsError(req, res, 413, message, 1);
      return;
    }
    if (!up.write(chunk) && up.writableLength >= RELAY_BUFFER) {
      req.pause();
      up.once('drain', () => req.resume());
    }
  });
  req.on('end', () => {
    bodyEnded = true;
    if (cut) return;
    up.end();
    if (heldAnswer !== undefined) answer(heldAnswer);
  });
}

/**
 * How much may wait in a socket's write buffer before the source is paused. Larger than
 * Node's 16 KiB default: pausing at every 64 KiB read costs a round of scheduling per read when
 * the client, the gateway and the upstream share a few cores; bounded, so memory stays small.
 */
const RELAY_BUFFER = 1024 * 1024;

/**
 * Copies a response body (not its end) with backpressure at {@link RELAY_BUFFER}. With
 * `holdLast`, the latest chunk is kept back until the returned function writes it: a client
 * reading a Content-Length answer would otherwise see it complete before the proxy ends it.
 * With `gate`, each chunk waits for it first (the source is paused meanwhile, so its end waits
 * too); a rejected gate calls `stop` and nothing more is written.
 */
function relay(
  from: IncomingMessage,
  to: ServerResponse,
  holdLast: boolean,
  gate?: (bytes: number) => Promise<void> | undefined,
  stop?: () => void,
): { releaseHeld: () => void; idle: () => Promise<void> | undefined } {
  let held: Buffer | undefined;
  let stopped = false;
  /** The chunk waiting for the gate, in order (the source is paused meanwhile). */
  let waiting: Promise<void> | undefined;
  /** Writes; false when the source must wait for a drain (it was paused, or stays paused). */
  const write = (chunk: Buffer): boolean => !(!to.write(chunk) && to.writableLength >= RELAY_BUFFER);
  const pass = (chunk: Buffer): boolean => {
    if (!holdLast) return write(chunk);
    const ready = held === undefined ? true : write(held);
    held = chunk;
    return ready;
  };
  from.on('data', (chunk: Buffer) => {
    if (stopped) return;
    const wait = gate?.(chunk.byteLength);
    if (wait === undefined) {
      if (!pass(chunk)) {
        from.pause();
        to.once('drain', () => from.resume());
      }
      return;
    }
    from.pause();
    const done: Promise<void> = wait.then(
      () => {
        if (waiting === done) waiting = undefined;
        if (stopped || to.destroyed) return;
        if (pass(chunk)) from.resume();
        else to.once('drain', () => from.resume());
      },
      () => {
        if (waiting === done) waiting = undefined;
        stopped = true;
        stop?.();
      },
    );
    waiting = done;
  });
  return {
    releaseHeld() {
      if (held !== undefined && !to.destroyed) to.write(held);
      held = undefined;
    },
    idle: () => waiting,
  };
}
