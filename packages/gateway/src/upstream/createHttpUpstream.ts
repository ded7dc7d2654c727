import { GatewayError } from '../errors/GatewayError.js';
import { ClientGoneError } from '../errors/ClientGoneError.js';
import { RawJson } from '../jsonrpc/RawJson.js';
import { createJsonConnections } from './createJsonConnections.js';
import { createUndiciPoster } from './createUndiciPoster.js';
import { UpstreamTransportError } from './UpstreamTransportError.js';

/** Settings of one upstream node. */
export interface UpstreamConfig {
  /** Label used in health output and logs (never the URL). */
  readonly name: string;
  readonly http: string;
  readonly ws?: string | undefined;
  /** Per-request timeout (headers and body), milliseconds. */
  readonly timeoutMs: number;
  /** Extra headers sent upstream (e.g. an Authorization for a provider). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Keep-alive connections in the pool. */
  readonly connections?: number | undefined;
  /** The HTTP client: nodegate's own connections (default) or undici's pool (`createUndiciPoster`). */
  readonly client?: 'nodegate' | 'undici' | undefined;
  /** Certificate authorities trusted for an `https:` URL besides the system's (PEM). */
  readonly ca?: string | undefined;
}

/** The JSON-RPC answer of an upstream: a result or an error object. */
export type UpstreamAnswer =
  | { result: unknown; error?: undefined }
  | { error: { code: number; message: string; data?: unknown } };

/** Live state of an upstream, for /health and failover. */
export interface UpstreamHealth {
  name: string;
  healthy: boolean;
  consecutiveFailures: number;
  lastFailure?: string;
  lastLatencyMs?: number;
}

/** One upstream node reached over HTTP (undici pool with keep-alive). */
export interface HttpUpstream {
  readonly name: string;
  readonly wsUrl: string | undefined;
  /**
   * Sends one JSON-RPC request object and returns its answer; throws UpstreamTransportError.
   * With `raw`, a plain success answer keeps its result as text ({@link RawJson}).
   */
  call(
    request: { jsonrpc: '2.0'; id: number; method: string; params: unknown },
    raw?: boolean,
    signal?: AbortSignal,
  ): Promise<UpstreamAnswer>;
  health(): UpstreamHealth;
  /** False after three consecutive transport failures, until a call succeeds (allocation-free). */
  isHealthy(): boolean;
  close(): Promise<void>;
}

const FAILURES_BEFORE_UNHEALTHY = 3;

/**
 * Creates an HTTP upstream: kept-alive connections (`createJsonConnections`, or undici's pool
 * with `client: 'undici'`), a timeout per request, and passive health
 * (three consecutive transport failures mark it unhealthy until a call succeeds).
 *
 * @example
 * const up = createHttpUpstream({ name: 'anvil', http: 'http://127.0.0.1:8545', timeoutMs: 10_000 });
 * await up.call({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] });
 */
export function createHttpUpstream(config: UpstreamConfig): HttpUpstream {
  const url = new URL(config.http);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...config.headers };
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  }
  const headerList = Object.entries(headers).flat();
  const target = new URL(url.href);
  target.username = '';
  target.password = '';
  const posterOptions = { connections: config.connections, timeoutMs: config.timeoutMs, ca: config.ca };
  const poster =
    config.client === 'undici'
      ? createUndiciPoster(target, headerList, posterOptions)
      : createJsonConnections(target, headerList, posterOptions);
  let consecutiveFailures = 0;
  let lastFailure: string | undefined;
  let lastLatencyMs: number | undefined;

  const isHealthy = () => consecutiveFailures < FAILURES_BEFORE_UNHEALTHY;

  function fail(err: UpstreamTransportError): never {
    consecutiveFailures += 1;
    lastFailure = err.message;
    throw err;
  }

  return {
    name: config.name,
    wsUrl: config.ws,
    async call(request, raw = false, signal) {
      const started = performance.now();
      // Serialised before anything is sent: a body the gateway cannot serialise is the
      // request's fault, never the upstream's (its health is not touched).
      let body: string;
      try {
        // the envelope written around the params' JSON (what JSON.stringify(request) writes, for
        // less: a template instead of walking the request object)
        const params = request.params === undefined ? undefined : JSON.stringify(request.params);
        body =
          params === undefined
            ? JSON.stringify(request)
            : `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},"params":${params}}`;
      } catch (cause) {
        throw new GatewayError('INVALID_REQUEST', 'invalid request: the params cannot be serialised', { cause });
      }
      let status: number;
      let text: string;
      let retryAfter: string | undefined;
      try {
        ({ status, text, retryAfter } = await poster.post(body, signal));
      } catch (err) {
        // the client went away: not the upstream's failure
        if (signal?.aborted) throw new ClientGoneError();
        return fail(classify(err, config.timeoutMs));
      }
      if (status !== 200) {
        return fail(
          new UpstreamTransportError(
            'http-status',
            `upstream answered HTTP ${status}`,
            status !== 429 && status !== 503,
            { status, retryAfterMs: retryAfterMs(retryAfter) },
          ),
        );
      }
      if (raw) {
        // `{"jsonrpc":"2.0","id":<id>,"result":<value>}`: the value's text cut out, nothing parsed
        const value = rawResult(text, request.id);
        if (value !== undefined) {
          consecutiveFailures = 0;
          lastLatencyMs = Math.round((performance.now() - started) * 100) / 100;
          return { result: new RawJson(value) };
        }
      }
      let answer: unknown;
      try {
        answer = JSON.parse(text);
      } catch (cause) {
        return fail(
          new UpstreamTransportError('bad-response', 'upstream answered with a body that is not JSON', true, { cause }),
        );
      }
      if (typeof answer !== 'object' || answer === null || !('result' in answer || 'error' in answer)) {
        return fail(new UpstreamTransportError('bad-response', 'upstream answered without result or error', true));
      }
      consecutiveFailures = 0;
      lastLatencyMs = Math.round((performance.now() - started) * 100) / 100;
      return answer as UpstreamAnswer;
    },
    isHealthy,
    health() {
      const h: UpstreamHealth = {
        name: config.name,
        healthy: isHealthy(),
        consecutiveFailures,
      };
      if (lastFailure !== undefined) h.lastFailure = lastFailure;
      if (lastLatencyMs !== undefined) h.lastLatencyMs = lastLatencyMs;
      return h;
    },
    async close() {
      await poster.close();
    },
  };
}

const RAW_HEAD = '{"jsonrpc":"2.0","id":';
const RAW_RESULT = ',"result":';

/**
 * The result's JSON text of an answer written as `{"jsonrpc":"2.0","id":<id>,"result":<value>}`
 * (trailing whitespace allowed), found without building the expected head; undefined when the
 * answer is written otherwise (it is then parsed).
 */
function rawResult(text: string, id: number): string | undefined {
  if (!text.startsWith(RAW_HEAD)) return undefined;
  // the id's digits compared as a number: `String(id)` would make a string for every request's
  // new id, which V8 puts in its old generation (its number-to-string cache lives there)
  const from = RAW_HEAD.length;
  let at = from;
  let value = 0;
  for (let c = text.charCodeAt(at); c >= 48 && c <= 57 && at - from < 16; c = text.charCodeAt(++at)) {
    value = value * 10 + (c - 48);
  }
  const digits = at - from;
  if (digits === 0 || value !== id || (digits > 1 && text.charCodeAt(from) === 48)) return undefined;
  if (!text.startsWith(RAW_RESULT, at)) return undefined;
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
  if (text.charCodeAt(end - 1) !== 125 /* } */) return undefined;
  return text.slice(at + RAW_RESULT.length, end - 1);
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function classify(err: unknown, timeoutMs: number): UpstreamTransportError {
  const code = (err as { code?: string }).code ?? '';
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'NG_CONNECT_TIMEOUT' ||
    code === 'NG_CONNECT_FAILED' ||
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EHOSTUNREACH'
  ) {
    return new UpstreamTransportError('connect', 'could not connect to the upstream', false, { cause: err });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'NG_TIMEOUT') {
    return new UpstreamTransportError('timeout', `upstream did not answer within ${timeoutMs} ms`, true, {
      cause: err,
    });
  }
  return new UpstreamTransportError('socket', 'the connection to the upstream failed', true, { cause: err });
}
