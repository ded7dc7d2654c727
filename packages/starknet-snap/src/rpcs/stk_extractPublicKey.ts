import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { chainCall, deployedClassHash, providerFor } from '../lib/chain';
import { normHex } from '../lib/keys';
import { type Params, reqAddress } from '../lib/params';

/**
 * stk_extractPublicKey: the account's public key: the owner read from the chain when the account is deployed,
 * else the key derived for it.
 *
 * @param p - `{userAddress}`.
 * @param net - The network.
 * @returns The public key (hex).
 */
export async function stk_extractPublicKey(p: Params, net: NetworkConfig): Promise<string> {
  const address = reqAddress(p, 'userAddress');
  const acc = await findWalletAccount(net, address, 'userAddress');
  if ((await deployedClassHash(net, acc.address)) === undefined) return acc.publicKey;
  const [owner] = await chainCall(net, `read the owner of ${acc.address}`, () =>
    providerFor(net).callContract(
      { contractAddress: acc.address, entrypoint: 'get_owner', calldata: [] },
      'pre_confirmed',
    ),
  );
  return owner ? normHex(owner) : acc.publicKey;
}
