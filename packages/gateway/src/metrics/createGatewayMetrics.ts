import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Transport } from '../usage/UsageEvent.js';
import type { MethodClass } from './createMethodClassifier.js';

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
 * do not share counters), with Node's default process metrics (`process_*`, `nodejs_*`):
 *
 * - `nodegate_requests_total{network,class,method,transport,status,outcome}`
 * - `nodegate_request_duration_seconds{network,class,transport,status}` (histogram; notifications excluded)
 * - `nodegate_limit_refusals_total{network,transport,kind}` (`rate`, `daily`, `concurrency`, `connections`)
 * - `nodegate_rule_refusals_total{network,transport,rule}` (`origin`, `user-agent`, `method`, `contract`, … `other`)
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
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: 'nodegate_requests_total',
    help: 'Finished requests, batch items, IPFS commands and subscription notifications',
    labelNames: ['network', 'class', 'method', 'transport', 'status', 'outcome'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'nodegate_request_duration_seconds',
    help: 'Time from a request arriving to its answer (a batch item: its batch)',
    labelNames: ['network', 'class', 'transport', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
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

  // bound children per label combination: labels are bounded, so these maps are too
  const requestChildren = new Map<string, Counter.Internal>();
  const durationChildren = new Map<string, Histogram.Internal<string>>();
  const onCollectError = options.onCollectError ?? (() => {});

  return {
    contentType: registry.contentType,
    observe(o) {
      const status = String(o.status);
      const id = `${o.network}\u0000${o.method}\u0000${o.transport}\u0000${status}\u0000${o.outcome}`;
      let child = requestChildren.get(id);
      if (child === undefined) {
        child = requests.labels(o.network, o.class, o.method, o.transport, status, o.outcome);
        requestChildren.set(id, child);
      }
      child.inc();
      if (o.seconds !== undefined) {
        const did = `${o.network}\u0000${o.class}\u0000${o.transport}\u0000${status}`;
        let h = durationChildren.get(did);
        if (h === undefined) {
          h = duration.labels(o.network, o.class, o.transport, status);
          durationChildren.set(did, h);
        }
        h.observe(o.seconds);
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
      // a metric of its own kind for the registry: its samples are the snapshot as read, so a
      // collector that fails shows no sample rather than a made-up zero
      const metric = {
        name: spec.name,
        help: spec.help,
        type: spec.type,
        get: async () => ({ name: spec.name, help: spec.help, type: spec.type, values: read(), aggregator: 'sum' }),
      };
      registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
    },
    scrape: () => registry.metrics(),
  };
}
