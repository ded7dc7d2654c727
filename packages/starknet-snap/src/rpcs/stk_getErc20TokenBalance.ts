import type { NetworkConfig } from '../config';
import { chainCall, providerFor } from '../lib/chain';
import { type Params, reqAddress } from '../lib/params';

/** Token balance at the pre-confirmed and latest blocks, hex, full u256. */
export interface TokenBalance {
  balancePending: string;
  balanceLatest: string;
}

const u256 = (r: string[]) => `0x${(BigInt(r[0] ?? '0x0') + (BigInt(r[1] ?? '0x0') << 128n)).toString(16)}`;

/**
 * stk_getErc20TokenBalance: `balance_of(userAddress)` of an ERC20 token.
 *
 * @param p - `{tokenAddress, userAddress}`.
 * @param net - The network.
 * @returns `{balancePending, balanceLatest}`.
 */
export async function stk_getErc20TokenBalance(p: Params, net: NetworkConfig): Promise<TokenBalance> {
  const tokenAddress = reqAddress(p, 'tokenAddress');
  const userAddress = reqAddress(p, 'userAddress');
  const provider = providerFor(net);
  const call = { contractAddress: tokenAddress, entrypoint: 'balance_of', calldata: [userAddress] };
  const what = `read the balance of ${userAddress} in token ${tokenAddress}`;
  const [pending, latest] = await Promise.all([
    chainCall(net, what, () => provider.callContract(call, 'pre_confirmed')),
    chainCall(net, what, () => provider.callContract(call, 'latest')),
  ]);
  return { balancePending: u256(pending), balanceLatest: u256(latest) };
}
