import type { NetworkSettings } from '../config/types.js';
import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';
import type { FamilyHandler } from '../families/FamilyHandler.js';
import type { MethodTraits } from '../families/types.js';
import type { HttpUpstream, UpstreamHealth } from '../upstream/createHttpUpstream.js';
import { UpstreamTransportError } from '../upstream/UpstreamTransportError.js';

/** A network at run time: its settings, family, and upstreams in priority order. */
export interface Network {
  readonly settings: NetworkSettings;
  readonly family: FamilyHandler;
  readonly upstreams: readonly HttpUpstream[];
  /**
   * Sends one call to the first healthy upstream, failing over on transport errors, and says
   * which upstream answered. With `raw`, a plain result may come back as RawJson text. When
   * `signal` aborts (the client went away), the upstream request is abandoned.
   */
  forward(
    method: string,
    params: unknown,
    policy: MethodTraits,
    raw?: boolean,
    signal?: AbortSignal,
  ): Promise<{ result: unknown; upstream: string }>;
  /** WebSocket URL of the first upstream that has one (for subscriptions). */
  wsUpstreamUrl(): string | undefined;
  /** Active probe of every upstream, for /health. */
  probe(timeoutMs: number): Promise<UpstreamHealth[]>;
}

/** JSON-RPC error codes that mean "this upstream is overloaded", so another may answer. */
const RETRY_ELSEWHERE_CODES = new Set([-32005, 429]);

/**
 * Builds a network over its upstreams. Transport failures, HTTP 5xx/429 and rate-limit
 * errors go to the next upstream; JSON-RPC errors (reverts, invalid params) go back to the
 * client as they are. Writes are retried elsewhere only when the first upstream surely did
 * not receive them.
 */
export function createNetwork(settings: NetworkSettings, family: FamilyHandler, upstreams: HttpUpstream[]): Network {
  let nextId = 1;
  return {
    settings,
    family,
    upstreams,
    async forward(method, params, policy, raw = false, signal) {
      // Healthy upstreams first, in configured order; sorting only when one is unhealthy.
      const ordered = upstreams.every((u) => u.isHealthy())
        ? upstreams
        : [...upstreams].sort((a, b) => rank(a) - rank(b));
      let last: UpstreamTransportError | UpstreamRpcError | undefined;
      for (const upstream of ordered) {
        let answer: Awaited<ReturnType<HttpUpstream['call']>>;
        try {
          answer = await upstream.call({ jsonrpc: '2.0', id: nextId++, method, params }, raw, signal);
        } catch (err) {
          if (!(err instanceof UpstreamTransportError)) throw err;
          last = err;
          if (policy.kind === 'write' && err.maybeDelivered) break;
          continue;
        }
        if (answer.error !== undefined) {
          const e = answer.error;
          const rpcError = new UpstreamRpcError(
            typeof e.code === 'number' ? e.code : -32603,
            typeof e.message === 'string' ? e.message : 'upstream error',
            e.data,
          );
          if (RETRY_ELSEWHERE_CODES.has(rpcError.code) && policy.kind !== 'write') {
            last = rpcError;
            continue;
          }
          throw Object.assign(rpcError, { upstream: upstream.name });
        }
        return { result: answer.result, upstream: upstream.name };
      }
      if (last instanceof UpstreamRpcError) throw last;
      const reason = last?.message ?? 'no upstream configured';
      throw new GatewayError('UPSTREAM_UNAVAILABLE', `upstream unavailable for network ${settings.name}: ${reason}`, {
        data: { network: settings.name, reason: last?.failure ?? 'none' },
        cause: last,
      });
    },
    wsUpstreamUrl() {
      return upstreams.find((u) => u.wsUrl !== undefined)?.wsUrl;
    },
    async probe(timeoutMs) {
      return Promise.all(
        upstreams.map(async (u) => {
          const started = performance.now();
          try {
            // aborted at the deadline, so a probe never outlives it (nor holds the pool at shutdown)
            await u.call(
              { jsonrpc: '2.0', id: nextId++, method: family.probeMethod, params: [] },
              false,
              AbortSignal.timeout(timeoutMs),
            );
            return { ...u.health(), healthy: true, lastLatencyMs: Math.round(performance.now() - started) };
          } catch {
            return { ...u.health(), healthy: false };
          }
        }),
      );
    },
  };
}

function rank(u: HttpUpstream): number {
  return u.isHealthy() ? 0 : 1;
}
