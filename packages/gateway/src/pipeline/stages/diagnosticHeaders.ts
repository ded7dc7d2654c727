import type { RpcCall } from '../RpcCall.js';

/**
 * The `X-Nodegate-*` diagnostics of an answer, added to `headers` (a new object; `headers` is
 * not changed): `X-Nodegate-Upstream` (the configured name of the upstream that answered; a
 * batch lists each once), `X-Nodegate-Attempts` (requests sent upstream for it; 0 when the
 * cache answered), `X-Nodegate-Cache` (`HIT` when every call was answered from the cache,
 * `MISS`; absent when the cache is off), `X-Nodegate-Multiplexed: true` (a call shared another
 * request's upstream call) and `X-Nodegate-Split` (the sub-requests of a split range). Names
 * only: never an upstream URL or a key.
 *
 * @example
 * diagnosticHeaders(billable, true, {}); // { 'x-nodegate-upstream': 'anvil', 'x-nodegate-attempts': '1', 'x-nodegate-cache': 'MISS' }
 */
export function diagnosticHeaders(
  calls: readonly RpcCall[],
  cacheOn: boolean,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  let upstreams: string | undefined;
  let attempts = 0;
  let hit = true;
  let multiplexed = false;
  let split = 0;
  for (const c of calls) {
    const u = c.upstream;
    if (u !== undefined) {
      if (upstreams === undefined) upstreams = u;
      else if (!`,${upstreams},`.includes(`,${u},`)) upstreams = `${upstreams},${u}`;
    }
    attempts += c.attempts ?? 0;
    if (c.cache !== 'HIT') hit = false;
    if (c.multiplexed) multiplexed = true;
    split += c.split ?? 0;
  }
  if (upstreams !== undefined) out['x-nodegate-upstream'] = upstreams;
  out['x-nodegate-attempts'] = String(attempts);
  if (cacheOn) out['x-nodegate-cache'] = hit ? 'HIT' : 'MISS';
  if (multiplexed) out['x-nodegate-multiplexed'] = 'true';
  if (split > 0) out['x-nodegate-split'] = String(split);
  return out;
}
