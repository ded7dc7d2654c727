import type { DependencyHealth } from '../health/createDependencyHealth.js';
import type { IpfsRoute } from '../ipfs/createIpfsRoute.js';
import type { Network } from '../network/createNetwork.js';
import type { UsageRecorderHealth } from '../usage/createUsageRecorder.js';

/**
 * Reports, for each network and the IPFS API, whether at least one upstream takes traffic, from
 * the background health snapshots (`Network.health()`, `IpfsRoute.health()`): reading it sends
 * nothing upstream, so an unauthenticated `GET /health` cannot make the gateway probe its nodes.
 * `ok` is false when any of them has none; partners do not count.
 *
 * `dependencies` (Redis, the database) are reported under `components` as `ok` or `degraded`
 * (with since when, the errors counted and why), from their own probes. One that is down makes
 * the overall `status` `degraded` but leaves `ok` true (HTTP 200): every instance shares them,
 * and this one still serves (limits per instance, known keys from its cache), so a load
 * balancer has no better instance to send the traffic to.
 *
 * `usage` (the usage recorder's `health()`) is reported under `usage`: `failing` once its
 * flushes keep failing (usage waits in memory meanwhile) makes `status` `degraded` the same way.
 */
export function healthReport(
  networks: readonly Network[],
  streaming: readonly Pick<IpfsRoute, 'health'>[] = [],
  dependencies: readonly DependencyHealth[] = [],
  usage?: () => UsageRecorderHealth,
) {
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
        {
          family: h.family,
          healthy: h.upstreams.some((u) => u.healthy),
          upstreams: h.upstreams,
          ...(h.gc === undefined ? {} : { gc: h.gc }),
        },
      ] as const;
    }),
  ];
  const ok = entries.every(([, n]) => n.healthy);
  const components = dependencies.map((d) => {
    const s = d.snapshot();
    return [
      d.name,
      {
        status: s.up ? 'ok' : 'degraded',
        since: new Date(s.since).toISOString(),
        errors: s.errors,
        ...(s.reason === undefined ? {} : { reason: s.reason }),
      },
    ] as const;
  });
  const recording = usage?.();
  const degraded = !ok || components.some(([, c]) => c.status !== 'ok') || recording?.status === 'failing';
  return {
    ok,
    body: {
      status: degraded ? 'degraded' : 'ok',
      networks: Object.fromEntries(entries),
      ...(components.length > 0 ? { components: Object.fromEntries(components) } : {}),
      ...(recording === undefined ? {} : { usage: recording }),
    },
  };
}
