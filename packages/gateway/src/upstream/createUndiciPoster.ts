import { createRequire } from 'node:module';
import type { JsonPoster, JsonPosterOptions } from './JsonPoster.js';
import { postJson } from './postJson.js';

// undici is loaded when an upstream asks for it (`client: undici`), not with this module: the
// default client does without it, and its code is megabytes of the gateway's heap
const require = createRequire(import.meta.url);

/**
 * A {@link JsonPoster} on undici's `Pool` (`postJson` on its `dispatch`): the upstream client
 * nodegate used before its own, kept for an upstream that needs what only undici does
 * (`upstreams[].client: undici`). Its timeouts are undici's `headersTimeout` and `bodyTimeout`.
 *
 * @example
 * const poster = createUndiciPoster(new URL('http://127.0.0.1:8545'), ['content-type', 'application/json'], { timeoutMs: 10_000 });
 * const { status, text } = await poster.post('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}');
 */
export function createUndiciPoster(url: URL, headers: readonly string[], options: JsonPosterOptions): JsonPoster {
  const path = `${url.pathname}${url.search}`;
  const { Pool } = require('undici') as typeof import('undici');
  const pool = new Pool(url.origin, {
    connections: options.connections ?? 128,
    keepAliveTimeout: options.keepAliveMs ?? 30_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connectTimeout: options.connectTimeoutMs ?? Math.min(options.timeoutMs, 5_000),
    ...(options.ca === undefined ? {} : { connect: { ca: options.ca } }),
  });
  let closed: Promise<void> | undefined;
  return {
    post: (body, signal) => postJson(pool, path, headers, body, signal),
    // once: undici refuses a second close
    close: () => {
      closed ??= pool.close();
      return closed;
    },
  };
}
