import type { Agent } from 'node:http';

/** The Kubo-compatible node behind the route, as the route's parts reach it. */
export interface IpfsUpstream {
  /** Base URL (`http://host:port`); commands under `/api/v0/`. */
  readonly url: URL;
  /** Keep-alive connection pool to it. */
  readonly agent: Agent;
  /** Extra headers sent with every request (e.g. the upstream's own credentials). */
  readonly headers: Readonly<Record<string, string>>;
  /** Socket idle timeout. */
  readonly idleTimeoutMs: number;
}
