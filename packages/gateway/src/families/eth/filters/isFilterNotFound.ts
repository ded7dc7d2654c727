import { UpstreamRpcError } from '../../../errors/GatewayError.js';

/** How nodes say they hold no filter by an id (geth, anvil, erigon, reth, besu: "filter not found"; nethermind: "Filter with id … does not exist"). */
const FILTER_NOT_FOUND = /filter (?:not found|.*does not exist)|(?:unknown|invalid) filter/i;

/**
 * Whether an upstream's answer says it holds no filter by the id it was asked about: it
 * restarted, or dropped the filter after its own idle timeout.
 *
 * @example
 * isFilterNotFound(new UpstreamRpcError(-32000, 'filter not found')); // true
 */
export function isFilterNotFound(err: unknown): boolean {
  return err instanceof UpstreamRpcError && FILTER_NOT_FOUND.test(err.message);
}
