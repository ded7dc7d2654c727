import type { ConnectSubscriptions } from '../subscriptions/SubscriptionTransport.js';
import type { BackendEndpoint, MetricsJson } from './ClusterMessages.js';

/**
 * What a gateway started in a cluster worker (`nodegate start --workers N`) gets from its
 * primary process, for `startGateway`'s `cluster` option: the embedded backends the primary
 * started (the worker neither starts them nor takes the data directory's lock, which the primary
 * holds), the primary's shared upstream subscriptions, and the metrics of every process.
 */
export interface ClusterWorkerContext {
  /** This worker's number, 1 … `count` (a replaced worker keeps its number). */
  readonly id: number;
  readonly count: number;
  /** The first worker of the start: the one-time work (a dashboard sign-in link) is its alone. */
  readonly first: boolean;
  /** The embedded backends the primary started, by name. */
  readonly backends: ReadonlyMap<string, BackendEndpoint>;
  /** The upstream connection of a network's subscriptions: the primary's, shared by every worker. */
  subscriptions(network: string): ConnectSubscriptions;
  /** Gives the primary this worker's metrics whenever a scrape (on any worker) gathers them. */
  shareMetrics(own: () => Promise<MetricsJson>): void;
  /** The metrics of every process of the gateway in one exposition text, each sample labelled `worker` (its number, or `primary`). */
  scrapeMetrics(): Promise<string>;
}
