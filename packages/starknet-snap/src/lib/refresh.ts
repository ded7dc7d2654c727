import type { NetworkConfig } from '../config';
import { getState, updateState } from '../state/store';
import { applyTransactionStatus, type SnapState } from '../state/transitions';
import { chainCall, providerFor } from './chain';
import { fetchStatus } from './txStatus';

/**
 * Re-reads from the node the status of every stored record of this network that is not final yet
 * (RECEIVED or PENDING), folding the answers into the state (which also initializes deployed accounts).
 *
 * @param net - The network.
 * @param filter - Restricts which records are refreshed.
 * @returns The state after the refresh.
 */
export async function refreshInFlight(
  net: NetworkConfig,
  filter: (senderAddress: string) => boolean = () => true,
): Promise<SnapState> {
  const state = await getState();
  const open = state.transactions.filter(
    (t) => t.chainId === net.chainId && (t.status === 'RECEIVED' || t.status === 'PENDING') && filter(t.senderAddress),
  );
  if (open.length === 0) return state;
  const provider = providerFor(net);
  const updates = await Promise.all(
    open.map(async (t) => ({
      hash: t.txnHash,
      update: await chainCall(net, `read the status of ${t.txnHash}`, () => fetchStatus(provider, t.txnHash)),
    })),
  );
  return updateState((s) => updates.reduce((acc, u) => applyTransactionStatus(acc, net.chainId, u.hash, u.update), s));
}
