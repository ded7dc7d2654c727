import { Counter, type MetricObjectWithValues, type MetricValue, Registry } from 'prom-client';
import type { Transport } from '../usage/UsageEvent.js';
import type { MethodClass } from './createMethodClassifier.js';
import { processMetricsRegistry } from './processMetricsRegistry.js';

/** One sample a collector reports at scrape time. */
export interface MetricSample {
  readonly labels?: Readonly<Record<string, string | number>>;
  readonly value: number;
}

/**
 * A metric whose samples are read from a module's snapshot when Prometheus scrapes (upstream
 * scores, breaker states, cache hits, open connections…). `counter` is for totals that only
 * grow (reported as they are); `gauge` for values that go up and down.
 */
export interface CollectorSpec {
  /** `nodegate_…`, in Prometheus' naming (`_total` for counters, base units: `_seconds`, `_bytes`). */
  readonly name: string;
  readonly help: string;
  readonly type: 'gauge' | 'counter';
  readonly labelNames?: readonly string[];
  /** Called on every scrape; must be cheap and must not call upstreams. */
  readonly collect: () => Iterable<MetricSample>;
}

/** One finished request (or batch item, IPFS command, subscription notification), in bounded labels. */
export interface RequestObservation {
  readonly network: string;
  readonly class: MethodClass;
  /** A table name or a placeholder (never the raw text of an unknown method). */
  readonly method: string;
  readonly transport: Transport;
  readonly status: number;
  readonly outcome: 'ok' | 'error' | 'refused';
  /** Seconds, or undefined for a notification (it has no latency of its own). */
  readonly seconds: number | undefined;
  /** The limit (`rate`, `daily`, `concurrency`) or rule (`origin`, `method`, …) that refused it. */
  readonly refusal: string | undefined;
  /** The configured upstream that answered, when one did. */
  readonly upstream: string | undefined;
}

/** The gateway's metrics: a Prometheus registry, request metrics, and collectors added by other modules. */
export interface GatewayMetrics {
  /** The Prometheus content type of {@link GatewayMetrics.scrape}'s text. */
  readonly contentType: string;
  /** Counts one finished request into the request, latency and refusal metrics. */
  observe(o: RequestObservation): void;
  /** Counts a failed usage flush (the recorder keeps the data for the next one). */
  usageFlushFailed(): void;
  /** Adds a metric read at scrape time. Throws on a label that could hold a key, account or request id. */
  addCollector(spec: CollectorSpec): void;
  /** The exposition text of every metric. */
  scrape(): Promise<string>;
  /** The same metrics as prom-client's JSON (a cluster worker's part of a gathered scrape, `src/cluster/`). */
  scrapeJson(): Promise<Array<MetricObjectWithValues<MetricValue<string>>>>;
}

interface RequestLeaf {
  readonly labels: Record<string, string>;
  count: number;
}
interface DurationLeaf {
  readonly labels: Record<string, string>;
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}
type Tree = Map<string | number, unknown>;

/** The map under `key`, created when absent. */
function level(tree: Tree, key: string | number): Tree {
  let next = tree.get(key) as Tree | undefined;
  if (next === undefined) {
    next = new Map();
    tree.set(key, next);
  }
  return next;
}

/** Limits whose refusals are counted by kind; every other refusal is a rule's. */
const LIMIT_KINDS = new Set(['rate', 'daily', 'concurrency', 'connections']);
/** The rules of a key's settings (`refused(reason)`); an unknown reason is counted as `other`. */
const RULES = new Set(['origin', 'user-agent', 'method', 'contract', 'referrer', 'ip', 'jwt']);
/** Labels that would identify a tenant or a request: never allowed (no API key in any label). */
const FORBIDDEN_LABELS = /^(?:key|api_?key|key_?id|account|account_?id|request_?id|secret|token|user|user_?id|ip)$/i;
const NAME = /^nodegate_[a-z0-9_]+$/;
/** Request latency buckets, seconds: 1 ms to 1 min. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Builds the gateway's metrics on a registry of its own (so several gateways in one process
 * do not share counters), scraped with the process' metrics (`process_*`, `nodejs_*`, see
 * {@link processMetricsRegistry}):
 *
 * - `nodegate_requests_total{network,class,method,transport,status,outcome}`
 * - `nodegate_request_duration_seconds{network,class,transport,status}` (histogram; notifications excluded)
 * - `nodegate_limit_refusals_total{network,transport,kind}` (`rate`, `daily`, `concurrency`, `connections`)
 * - `nodegate_rule_refusals_total{network,transport,rule}` (`origin`, `user-agent`, `method`, `contract`, … `other`)
 * - `nodegate_upstream_answers_total{network,upstream,outcome}` (which configured upstream answered)
 * - `nodegate_usage_flush_failures_total`
 * - `nodegate_collector_errors_total{metric}` (a collector that threw: its metric is left empty; the
 *   count may show from the next scrape on)
 *
 * and whatever {@link GatewayMetrics.addCollector} adds. Label values are bounded by the
 * caller (see `createMeteredUsageRecorder`); label names that could carry a key, an account or
 * a request id are refused.
 *
 * @example
 * const metrics = createGatewayMetrics({ onCollectError: (name, err) => log.warn('metrics collector failed', { name, error: err }) });
 * metrics.addCollector({ name: 'nodegate_ws_connections', help: 'Open WebSocket connections', type: 'gauge', collect: () => [{ value: ws.open() }] });
 * const text = await metrics.scrape();
 */
export function createGatewayMetrics(
  options: { defaultMetrics?: boolean; onCollectError?: (name: string, err: unknown) => void } = {},
): GatewayMetrics {
  const registry = new Registry();
  const withProcess = options.defaultMetrics ?? true;
  const registers = [registry];
  // Requests and latency are counted in plain maps (the hot path: a string key and a map
  // lookup, about 0.1 µs) and turned into samples when scraped. Labels are bounded, so these
  // maps are too.
  const requests: RequestLeaf[] = [];
  const durations: DurationLeaf[] = [];
  const requestTree: Tree = new Map();
  const durationTree: Tree = new Map();
  const register = (name: string, help: string, type: string, values: () => unknown[]) => {
    const metric = { name, help, type, get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }) };
    registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
  };
  register(
    'nodegate_requests_total',
    'Finished requests, batch items, IPFS commands and subscription notifications',
    'counter',
    () => requests.map((r) => ({ labels: r.labels, value: r.count })),
  );
  register(
    'nodegate_request_duration_seconds',
    'Time from a request arriving to its answer (a batch item: its batch)',
    'histogram',
    () => {
      const values: unknown[] = [];
      for (const d of durations) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          cumulative += d.buckets[i]!;
          values.push({
            metricName: 'nodegate_request_duration_seconds_bucket',
            labels: { le, ...d.labels },
            value: cumulative,
          });
        });
        values.push({
          metricName: 'nodegate_request_duration_seconds_bucket',
          labels: { le: '+Inf', ...d.labels },
          value: d.count,
        });
        values.push({ metricName: 'nodegate_request_duration_seconds_sum', labels: d.labels, value: d.sum });
        values.push({ metricName: 'nodegate_request_duration_seconds_count', labels: d.labels, value: d.count });
      }
      return values;
    },
  );
  const answers: RequestLeaf[] = [];
  const answerTree: Tree = new Map();
  register(
    'nodegate_upstream_answers_total',
    'Requests and batch items answered by each configured upstream (after any failover)',
    'counter',
    () => answers.map((a) => ({ labels: a.labels, value: a.count })),
  );
  const limitRefusals = new Counter({
    name: 'nodegate_limit_refusals_total',
    help: 'Requests refused by a limit: rate, daily credits, per-key concurrency, connections',
    labelNames: ['network', 'transport', 'kind'] as const,
    registers,
  });
  const ruleRefusals = new Counter({
    name: 'nodegate_rule_refusals_total',
    help: "Requests refused by a rule of the key's settings (origin, user agent, method, contract…)",
    labelNames: ['network', 'transport', 'rule'] as const,
    registers,
  });
  const flushFailures = new Counter({
    name: 'nodegate_usage_flush_failures_total',
    help: 'Usage flushes that failed (their data is kept for the next flush)',
    registers,
  });
  const collectorErrors = new Counter({
    name: 'nodegate_collector_errors_total',
    help: 'Scrapes in which a metric collector threw (that metric had no samples)',
    labelNames: ['metric'] as const,
    registers,
  });

  const onCollectError = options.onCollectError ?? (() => {});

  return {
    contentType: registry.contentType,
    observe(o) {
      // nested maps keyed by the label values themselves: no key string is built per request
      const byOutcome = level(level(level(level(requestTree, o.network), o.class), o.method), o.transport);
      const leafs = level(byOutcome, o.status) as unknown as Map<string, RequestLeaf>;
      const r = leafs.get(o.outcome);
      if (r !== undefined) r.count++;
      else {
        const labels = {
          network: o.network,
          class: o.class,
          method: o.method,
          transport: o.transport,
          status: String(o.status),
          outcome: o.outcome,
        };
        const leaf = { labels, count: 1 };
        leafs.set(o.outcome, leaf);
        requests.push(leaf);
      }
      if (o.seconds !== undefined) {
        const byStatus = level(level(level(durationTree, o.network), o.class), o.transport) as unknown as Map<
          number,
          DurationLeaf
        >;
        let d = byStatus.get(o.status);
        if (d === undefined) {
          const labels = { network: o.network, class: o.class, transport: o.transport, status: String(o.status) };
          d = { labels, buckets: new Float64Array(LATENCY_BUCKETS.length), sum: 0, count: 0 };
          byStatus.set(o.status, d);
          durations.push(d);
        }
        let i = 0;
        while (i < LATENCY_BUCKETS.length && o.seconds > LATENCY_BUCKETS[i]!) i++;
        if (i < LATENCY_BUCKETS.length) d.buckets[i]!++;
        d.sum += o.seconds;
        d.count++;
      }
      if (o.upstream !== undefined) {
        const byOutcome = level(level(answerTree, o.network), o.upstream) as unknown as Map<string, RequestLeaf>;
        const a = byOutcome.get(o.outcome);
        if (a !== undefined) a.count++;
        else {
          const leaf = { labels: { network: o.network, upstream: o.upstream, outcome: o.outcome }, count: 1 };
          byOutcome.set(o.outcome, leaf);
          answers.push(leaf);
        }
      }
      if (o.refusal !== undefined) {
        if (LIMIT_KINDS.has(o.refusal)) limitRefusals.labels(o.network, o.transport, o.refusal).inc();
        else ruleRefusals.labels(o.network, o.transport, RULES.has(o.refusal) ? o.refusal : 'other').inc();
      }
    },
    usageFlushFailed() {
      flushFailures.inc();
    },
    addCollector(spec) {
      if (!NAME.test(spec.name)) throw new Error(`metric ${spec.name}: names start with nodegate_ (lowercase, _)`);
      const labelNames = spec.labelNames ?? [];
      const forbidden = labelNames.find((l) => FORBIDDEN_LABELS.test(l));
      if (forbidden !== undefined) {
        throw new Error(`metric ${spec.name}: label "${forbidden}" could identify a key, account or request`);
      }
      const allowed = new Set(labelNames);
      const read = (): Array<{ labels: Record<string, string | number>; value: number }> => {
        try {
          const values: Array<{ labels: Record<string, string | number>; value: number }> = [];
          for (const sample of spec.collect()) {
            const labels = { ...sample.labels };
            for (const l of Object.keys(labels)) {
              if (!allowed.has(l)) throw new Error(`metric ${spec.name}: undeclared label "${l}"`);
            }
            values.push({ labels, value: sample.value });
          }
          return values;
        } catch (err) {
          collectorErrors.labels(spec.name).inc();
          onCollectError(spec.name, err);
          return [];
        }
      };
      // its samples are the snapshot as read: a collector that fails shows no sample rather
      // than a made-up zero
      register(spec.name, spec.help, spec.type, read);
    },
    scrape: () => (withProcess ? Registry.merge([processMetricsRegistry(), registry]) : registry).metrics(),
    scrapeJson: () =>
      (withProcess ? Registry.merge([processMetricsRegistry(), registry]) : registry).getMetricsAsJSON(),
  };
}
