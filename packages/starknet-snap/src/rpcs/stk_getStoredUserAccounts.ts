import type { NetworkConfig } from '../config';
import type { Params } from '../lib/params';
import { refreshInFlight } from '../lib/refresh';
import { type AccountRecord, accountsOf } from '../state/transitions';

/**
 * stk_getStoredUserAccounts: the accounts this wallet stored on the network, initialized or initializing
 * (in-flight deploys are re-checked first, so a deploy that was accepted shows as initialized).
 *
 * @param _p - No params besides chainId.
 * @param net - The network.
 * @returns The accounts, by address index.
 */
export async function stk_getStoredUserAccounts(_p: Params, net: NetworkConfig): Promise<AccountRecord[]> {
  const state = await refreshInFlight(net);
  return accountsOf(state, net.chainId);
}
