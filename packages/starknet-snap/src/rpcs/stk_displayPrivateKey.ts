import type { RequestContext } from '../methods';
import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { confirmOrReject, showAlert } from '../lib/dialogs';
import { type Params, reqAddress } from '../lib/params';

/**
 * stk_displayPrivateKey: after the user confirms, shows the account's private key in a wallet dialog.
 * The key is never returned.
 *
 * @param p - `{userAddress}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns null.
 */
export async function stk_displayPrivateKey(p: Params, net: NetworkConfig, ctx: RequestContext): Promise<null> {
  const address = reqAddress(p, 'userAddress');
  const acc = await findWalletAccount(net, address, 'userAddress');
  await confirmOrReject(
    'Show private key',
    [
      ['Requested by', ctx.origin],
      ['Network', net.name],
      ['Account address', acc.address],
    ],
    ['Anyone with this key controls the account. Make sure nobody is watching your screen.'],
  );
  await showAlert('Private key', [['Private key', acc.keys.privateKey]], ['Never share this key.']);
  return null;
}
