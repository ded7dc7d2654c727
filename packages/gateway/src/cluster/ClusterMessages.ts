import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import type { StartSummary } from '../cli/printStartSummary.js';
import type { GatewayConfig } from '../config/types.js';
import type { LogFormat, LogLevel } from '../log/createLogger.js';
import type { SubscriptionFilter } from '../subscriptions/SubscriptionFamily.js';

// The messages between the primary process of `nodegate start --workers N` and its workers, over
// Node's cluster IPC channel (structured clone: `serialization: 'advanced'`). Every message has a
// `t` naming it; requests carry a `ref` their answer repeats.

/** An embedded backend the primary started, as the workers reach it. */
export interface BackendEndpoint {
  readonly http: string;
  readonly ws?: string | undefined;
}

/** One process's metrics, as prom-client's `getMetricsAsJSON` gives them. */
export type MetricsJson = Array<MetricObjectWithValues<MetricValue<string>>>;

/** An error that crossed the channel (what a subscription hub needs to tell them apart). */
export type SentError =
  | { readonly kind: 'rpc'; readonly code: number; readonly message: string; readonly data?: unknown }
  | { readonly kind: 'gateway'; readonly message: string; readonly data?: unknown }
  | { readonly kind: 'other'; readonly message: string };

/** What a worker is started with (the first message it gets). */
export interface InitMessage {
  readonly t: 'init';
  /** 1 … `count`; a replaced worker keeps the number of the one it replaces. */
  readonly id: number;
  readonly count: number;
  /** The first worker of the start: it alone does the start's one-time work and reports progress. */
  readonly first: boolean;
  readonly config: GatewayConfig;
  readonly backends: ReadonlyArray<readonly [string, BackendEndpoint]>;
  readonly logLevel: LogLevel | undefined;
  readonly logFormat: LogFormat;
  /** Where the primary writes the access log (for the startup summary's line). */
  readonly accessWhere: string | undefined;
}

/** From the primary to a worker. */
export type PrimaryMessage =
  | InitMessage
  | { readonly t: 'stop' }
  | { readonly t: 'tls-reload'; readonly ref: number }
  | { readonly t: 'metrics-collect'; readonly ref: number }
  | { readonly t: 'metrics-gathered'; readonly ref: number; readonly parts: ReadonlyArray<MetricsPart> }
  | { readonly t: 'sub-subscribed'; readonly ref: number; readonly call: number; readonly id: string }
  | { readonly t: 'sub-failed'; readonly ref: number; readonly call: number; readonly error: SentError }
  | {
      readonly t: 'sub-event';
      readonly ref: number;
      readonly event: 'notification' | 'dropped' | 'reconnected' | 'gave-up';
      readonly id?: string;
      readonly result?: unknown;
      readonly reason?: string;
    };

/** One process's metrics in a gathered scrape: `worker` is its number, or `primary`. */
export interface MetricsPart {
  readonly worker: string;
  readonly metrics: MetricsJson;
}

/** From a worker to the primary. */
export type WorkerMessage =
  | { readonly t: 'progress'; readonly line: string }
  | { readonly t: 'ready'; readonly summary: StartSummary }
  | { readonly t: 'failed'; readonly message: string }
  | {
      readonly t: 'log';
      readonly level: 'error' | 'warn' | 'info';
      readonly msg: string;
      readonly fields: Record<string, unknown> | undefined;
    }
  | { readonly t: 'access'; readonly lines: readonly string[] }
  | {
      readonly t: 'tls-reloaded';
      readonly ref: number;
      readonly ok: boolean;
      readonly certificate: string;
      readonly error?: string | undefined;
    }
  | { readonly t: 'metrics-gather'; readonly ref: number }
  | { readonly t: 'metrics-part'; readonly ref: number; readonly metrics: MetricsJson }
  | { readonly t: 'sub-open'; readonly ref: number; readonly network: string }
  | { readonly t: 'sub-subscribe'; readonly ref: number; readonly call: number; readonly filter: SubscriptionFilter }
  | { readonly t: 'sub-unsubscribe'; readonly ref: number; readonly id: string }
  | { readonly t: 'sub-close'; readonly ref: number };
