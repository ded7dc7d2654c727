import { selectedNetwork } from '../config';
import { getState } from '../state/store';

/** The wallet's selected network, as stk_getCurrentNetwork answers it. */
export interface CurrentNetwork {
  /** Hex chain id. */
  chainId: string;
  /** The name dialogs show. */
  name: string;
}

/**
 * stk_getCurrentNetwork: the wallet's selected network (stored by stk_switchNetwork; the test network until one is
 * chosen), so a dApp's connector agrees with the wallet after a page reload. Read-only and not sensitive (every
 * Starknet wallet answers `wallet_requestChainId` without asking), so it has no dialog and does not call the node.
 *
 * @returns `{chainId, name}`.
 * @example
 * ```ts
 * await stk_getCurrentNetwork(); // { chainId: '0x534e5f5345504f4c4941', name: 'Starknet Sepolia' }
 * ```
 */
export async function stk_getCurrentNetwork(): Promise<CurrentNetwork> {
  const net = selectedNetwork((await getState()).selectedChainId);
  return { chainId: net.chainId, name: net.name };
}
