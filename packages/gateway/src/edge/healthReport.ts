import type { Network } from '../network/createNetwork.js';
import type { IpfsRoute } from '../ipfs/createIpfsRoute.js';

/**
 * Probes every upstream of every network and of the streaming routes (the IPFS API), in
 * parallel, bounded by `timeoutMs`, and reports for each whether at least one upstream
 * answers. `ok` is false when any of them has none.
 */
export async function healthReport(
  networks: readonly Network[],
  timeoutMs: number,
  streaming: readonly Pick<IpfsRoute, 'probe'>[] = [],
) {
  const probes = [
    ...networks.map(async (n) => ({
      name: n.settings.name,
      family: n.settings.family,
      upstreams: await n.probe(timeoutMs),
    })),
    ...streaming.map((r) => r.probe(timeoutMs)),
  ];
  const entries = (await Promise.all(probes)).map(
    (p) => [p.name, { family: p.family, healthy: p.upstreams.some((u) => u.healthy), upstreams: p.upstreams }] as const,
  );
  const ok = entries.every(([, n]) => n.healthy);
  return { ok, body: { status: ok ? 'ok' : 'degraded', networks: Object.fromEntries(entries) } };
}
