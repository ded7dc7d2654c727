import type { Network } from '../network/createNetwork.js';

/**
 * Probes every upstream of every network (in parallel, bounded by `timeoutMs`) and reports
 * per network whether at least one upstream answers. `ok` is false when any network has none.
 */
export async function healthReport(networks: readonly Network[], timeoutMs: number) {
  const entries = await Promise.all(
    networks.map(async (n) => {
      const upstreams = await n.probe(timeoutMs);
      return [
        n.settings.name,
        { family: n.settings.family, healthy: upstreams.some((u) => u.healthy), upstreams },
      ] as const;
    }),
  );
  const ok = entries.every(([, n]) => n.healthy);
  return { ok, body: { status: ok ? 'ok' : 'degraded', networks: Object.fromEntries(entries) } };
}
