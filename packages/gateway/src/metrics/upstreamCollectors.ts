import type { ClassHealth, Network, UpstreamHealth } from '../network/createNetwork.js';
import { SCORE_CLASSES } from '../upstream/scoreClassOf.js';
import type { CollectorSpec, MetricSample } from './createGatewayMetrics.js';

const BREAKER = { closed: 0, 'half-open': 1, open: 2 } as const;

/**
 * The upstreams' health, read from each network's background snapshot at scrape time (no
 * upstream traffic): `nodegate_upstream_healthy`, `nodegate_upstream_breaker_state` (0 closed,
 * 1 half-open, 2 open), `nodegate_upstream_head_lag` (blocks behind the best upstream),
 * `nodegate_upstream_consecutive_failures`, each by `{network, upstream, role}`;
 * `nodegate_upstream_score` (lower is better), `nodegate_upstream_latency_ewma_ms`,
 * `nodegate_upstream_latency_p95_ms` and `nodegate_upstream_error_rate`, each by
 * `{network, upstream, role, class}` (the method class: `light`, `heavy`, `write`); and
 * `nodegate_failovers_total{network, kind}` (`upstream`: answered by another upstream than the
 * preferred one; `partner`: by a failover partner); `nodegate_multiplexed_total{network}` (calls
 * answered by an identical call in flight: upstream calls saved); for upstreams with a budget
 * (`rateLimit`), `nodegate_upstream_budget_rate`, `nodegate_upstream_budget_spent_total` and
 * `nodegate_upstream_throttled_total` by `{network, upstream, role}`, and per network
 * `nodegate_upstream_budget_waits_total` and `nodegate_upstream_budget_exhausted_total`;
 * consensus: `nodegate_consensus_disputes_total{network}`, `nodegate_consensus_sit_outs_total{network}`
 * and `nodegate_upstream_sitting_out{network, upstream, role}` (1 while it sits out).
 *
 * @example
 * for (const c of upstreamCollectors(networks)) metrics.addCollector(c);
 */
export function upstreamCollectors(networks: readonly Network[]): CollectorSpec[] {
  const labelsOf = (n: Network, h: UpstreamHealth) => ({ network: n.settings.name, upstream: h.name, role: h.role });
  const sample = (labels: Record<string, string>, value: number | undefined): MetricSample[] =>
    value === undefined ? [] : [{ labels, value }];
  /** One sample per upstream. */
  const each = (value: (h: UpstreamHealth) => number | undefined) => (): MetricSample[] =>
    networks.flatMap((n) => n.health().flatMap((h) => sample(labelsOf(n, h), value(h))));
  /** One sample per upstream and method class. */
  const perClass = (value: (c: ClassHealth) => number | undefined) => (): MetricSample[] =>
    networks.flatMap((n) =>
      n.health().flatMap((h) => {
        const labels = labelsOf(n, h);
        return SCORE_CLASSES.flatMap((cls) => sample({ ...labels, class: cls }, value(h.classes[cls])));
      }),
    );
  const labelNames = ['network', 'upstream', 'role'];
  const classLabelNames = [...labelNames, 'class'];
  return [
    {
      name: 'nodegate_upstream_healthy',
      help: 'Whether the upstream takes traffic (its breaker is not open and its last health probe answered)',
      type: 'gauge',
      labelNames,
      collect: each((h) => (h.healthy ? 1 : 0)),
    },
    {
      name: 'nodegate_upstream_breaker_state',
      help: 'Circuit breaker of the upstream: 0 closed, 1 half-open, 2 open',
      type: 'gauge',
      labelNames,
      collect: each((h) => BREAKER[h.breaker]),
    },
    {
      name: 'nodegate_upstream_score',
      help: 'Routing score of the upstream for a method class (latency x errors x head lag; lower is better)',
      type: 'gauge',
      labelNames: classLabelNames,
      collect: perClass((c) => c.score),
    },
    {
      name: 'nodegate_upstream_head_lag',
      help: 'Blocks the upstream is behind the best upstream of its network',
      type: 'gauge',
      labelNames,
      collect: each((h) => h.lag),
    },
    {
      name: 'nodegate_upstream_latency_ewma_ms',
      help: 'Latency of the upstream for a method class, exponentially weighted, milliseconds',
      type: 'gauge',
      labelNames: classLabelNames,
      collect: perClass((c) => c.latencyMs),
    },
    {
      name: 'nodegate_upstream_latency_p95_ms',
      help: 'The 95th percentile of the upstream latency for a method class (its last 128 answers), milliseconds',
      type: 'gauge',
      labelNames: classLabelNames,
      collect: perClass((c) => c.p95Ms),
    },
    {
      name: 'nodegate_upstream_error_rate',
      help: 'Share of failing answers of the upstream for a method class, exponentially weighted',
      type: 'gauge',
      labelNames: classLabelNames,
      collect: perClass((c) => c.errorRate),
    },
    {
      name: 'nodegate_upstream_consecutive_failures',
      help: 'Failures in a row of the upstream',
      type: 'gauge',
      labelNames,
      collect: each((h) => h.consecutiveFailures),
    },
    {
      name: 'nodegate_failovers_total',
      help: 'Answers from another upstream than the preferred one (kind=upstream) or from a failover partner (kind=partner)',
      type: 'counter',
      labelNames: ['network', 'kind'],
      collect: () =>
        networks.flatMap((n) => {
          const f = n.failovers();
          return [
            { labels: { network: n.settings.name, kind: 'upstream' }, value: f.upstream },
            { labels: { network: n.settings.name, kind: 'partner' }, value: f.partner },
          ];
        }),
    },
    {
      name: 'nodegate_upstream_budget_rate',
      help: "The upstream's request budget in force, per second (rateLimit: lower after the provider's 429s, relaxing back)",
      type: 'gauge',
      labelNames,
      collect: each((h) => h.budget?.effective),
    },
    {
      name: 'nodegate_upstream_budget_spent_total',
      help: 'Calls that found the upstream at its request budget (and went to another upstream or waited)',
      type: 'counter',
      labelNames,
      collect: each((h) => h.budget?.spent),
    },
    {
      name: 'nodegate_upstream_throttled_total',
      help: 'Rate-limit answers (HTTP 429, -32005) of an upstream with a request budget',
      type: 'counter',
      labelNames,
      collect: each((h) => h.budget?.throttled),
    },
    {
      name: 'nodegate_upstream_budget_waits_total',
      help: 'Calls that waited because every upstream that could take them was at its request budget',
      type: 'counter',
      labelNames: ['network'],
      collect: () => networks.map((n) => ({ labels: { network: n.settings.name }, value: n.counters().budgetWaits })),
    },
    {
      name: 'nodegate_upstream_budget_exhausted_total',
      help: 'Calls answered -32005 because no upstream had room in its request budget before their deadline',
      type: 'counter',
      labelNames: ['network'],
      collect: () =>
        networks.map((n) => ({ labels: { network: n.settings.name }, value: n.counters().budgetExhausted })),
    },
    {
      name: 'nodegate_multiplexed_total',
      help: 'Calls answered by an identical call another request had in flight (in-flight multiplexing: upstream calls saved)',
      type: 'counter',
      labelNames: ['network'],
      collect: () => networks.map((n) => ({ labels: { network: n.settings.name }, value: n.counters().multiplexed })),
    },
    {
      name: 'nodegate_consensus_disputes_total',
      help: 'Consensus calls whose participants did not agree (onDispute then decided)',
      type: 'counter',
      labelNames: ['network'],
      collect: () =>
        networks.map((n) => ({ labels: { network: n.settings.name }, value: n.counters().consensusDisputes })),
    },
    {
      name: 'nodegate_consensus_sit_outs_total',
      help: 'Times an upstream was sent to sit out for disagreeing with the consensus sitOutAfter times in a row',
      type: 'counter',
      labelNames: ['network'],
      collect: () =>
        networks.map((n) => ({ labels: { network: n.settings.name }, value: n.counters().consensusSitOuts })),
    },
    {
      name: 'nodegate_upstream_sitting_out',
      help: 'Whether the upstream sits out (1) after losing consensus disputes: it takes no reads',
      type: 'gauge',
      labelNames,
      collect: each((h) => (h.sittingOut === undefined ? 0 : 1)),
    },
  ];
}
