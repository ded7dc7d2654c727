import type { RequestContext } from '../methods';
import { ec, num } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { confirmOrReject } from '../lib/dialogs';
import { type Params, reqAddress } from '../lib/params';
import { parseTypedData } from '../lib/typedData';

/**
 * stk_signMessage: after a dialog showing the message, signs the SNIP-12 hash of the typed data with the
 * signer's key.
 *
 * @param p - `{typedDataMessage, signerAddress}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns The signature `[r, s]` as hex strings.
 */
export async function stk_signMessage(p: Params, net: NetworkConfig, ctx: RequestContext): Promise<string[]> {
  const signer = reqAddress(p, 'signerAddress');
  const { data, hash } = parseTypedData(p, 'typedDataMessage', signer);
  const acc = await findWalletAccount(net, signer, 'signerAddress');
  await confirmOrReject('Sign message', [
    ['Requested by', ctx.origin],
    ['Network', net.name],
    ['Signer', acc.address],
    ['Domain', JSON.stringify(data.domain)],
    ['Message', JSON.stringify(data.message, null, 1)],
    ['Message hash', hash],
  ]);
  const sig = ec.starkCurve.sign(hash, acc.keys.privateKey);
  return [num.toHex(sig.r), num.toHex(sig.s)];
}
