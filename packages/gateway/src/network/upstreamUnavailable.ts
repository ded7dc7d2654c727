import { GatewayError, UpstreamRpcError } from '../errors/GatewayError.js';
import { UpstreamTransportError } from '../upstream/UpstreamTransportError.js';

/**
 * The error a client gets when no upstream of `network` answered: the last node's own JSON-RPC
 * answer when one answered (even "header not found" from every node: it is the client's), else
 * `UPSTREAM_UNAVAILABLE` with the reason (`data.reason`: the transport failure, `circuit-open`
 * when `why` says why nothing was tried, or `upstream-error`). Never names a URL.
 *
 * @example
 * throw upstreamUnavailable('mainnet', lastError, undefined);
 * throw upstreamUnavailable('mainnet', undefined, 'every upstream is failing (circuit open)');
 */
export function upstreamUnavailable(
  network: string,
  last: UpstreamTransportError | UpstreamRpcError | undefined,
  why?: string,
): Error {
  if (last instanceof UpstreamRpcError) return last;
  const reason = why ?? last?.message ?? 'no upstream configured';
  return new GatewayError('UPSTREAM_UNAVAILABLE', `upstream unavailable for network ${network}: ${reason}`, {
    data: {
      network,
      reason: last instanceof UpstreamTransportError ? last.failure : why ? 'circuit-open' : 'upstream-error',
    },
    cause: last,
  });
}
