import type { IpfsRoute } from '../ipfs/createIpfsRoute.js';
import type { Network } from '../network/createNetwork.js';

/**
 * Reports, for each network and the IPFS API, whether at least one upstream takes traffic, from
 * the background health snapshots (`Network.health()`, `IpfsRoute.health()`): reading it sends
 * nothing upstream, so an unauthenticated `GET /health` cannot make the gateway probe its nodes.
 * `ok` is false when any of them has none; partners do not count.
 */
export function healthReport(networks: readonly Network[], streaming: readonly Pick<IpfsRoute, 'health'>[] = []) {
  const entries = [
    ...networks.map((n) => {
      const upstreams = n.health();
      const healthy = upstreams.some((u) => u.role === 'primary' && u.healthy);
      return [n.settings.name, { family: n.settings.family, healthy, upstreams }] as const;
    }),
    ...streaming.map((r) => {
      const h = r.health();
      return [
        h.name,
        { family: h.family, healthy: h.upstreams.some((u) => u.healthy), upstreams: h.upstreams },
      ] as const;
    }),
  ];
  const ok = entries.every(([, n]) => n.healthy);
  return { ok, body: { status: ok ? 'ok' : 'degraded', networks: Object.fromEntries(entries) } };
}
