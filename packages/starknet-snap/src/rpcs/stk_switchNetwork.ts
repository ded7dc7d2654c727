import { type NetworkConfig, selectedNetwork } from '../config';
import { confirmOrReject } from '../lib/dialogs';
import type { Params } from '../lib/params';
import type { RequestContext } from '../methods';
import { getState, updateState } from '../state/store';

/**
 * stk_switchNetwork: after the user agrees, makes `chainId` the wallet's selected network (kept in the snap's state;
 * the request's `chainId` is the target, checked against the node like every chain call, so the wallet never moves
 * to a network whose node is unreachable or serves another chain). Switching to the network already selected
 * (the test network until one is chosen, as stk_getCurrentNetwork reports) answers at once.
 *
 * @param _p - `{chainId}` (read by the entry point into `net`).
 * @param net - The target network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns True once switched.
 */
export async function stk_switchNetwork(_p: Params, net: NetworkConfig, ctx: RequestContext): Promise<boolean> {
  if (selectedNetwork((await getState()).selectedChainId).chainId === net.chainId) return true;
  await confirmOrReject('Switch network', [
    ['Requested by', ctx.origin],
    ['Network', `${net.name} (${net.chainId})`],
  ]);
  await updateState((s) => ({ ...s, selectedChainId: net.chainId }));
  return true;
}
