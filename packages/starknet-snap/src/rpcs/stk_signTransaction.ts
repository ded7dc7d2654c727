import { Signer, stark } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { describeCalls } from '../lib/describeCalls';
import { confirmOrReject } from '../lib/dialogs';
import { invalidParam } from '../lib/errors';
import { formatUnits } from '../lib/format';
import { normHex } from '../lib/keys';
import { type Params, reqAddress, reqCalls } from '../lib/params';
import { maxFeeOf, v3Details } from '../lib/signerDetails';
import type { RequestContext } from '../methods';

/**
 * stk_signTransaction: signs (does not send) an INVOKE v3 of `transactions` from `signerAddress`, for a dApp's
 * starknet.js signer: after a dialog with the decoded calls, the nonce and the fee limit. The details must name this
 * network and this account. Query-version details (fee estimates, never executable) are signed without a dialog.
 *
 * @param p - `{signerAddress, transactions: Call[], details: V3InvocationsSignerDetails}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns The signature `[r, s]` (hex).
 */
export async function stk_signTransaction(p: Params, net: NetworkConfig, ctx: RequestContext): Promise<string[]> {
  const signer = reqAddress(p, 'signerAddress');
  const calls = reqCalls(p, 'transactions');
  const { raw, v3 } = v3Details(p, net);
  const wallet = typeof raw.walletAddress === 'string' ? raw.walletAddress : signer;
  if (BigInt(wallet) !== BigInt(signer)) {
    throw invalidParam('details.walletAddress', `must be the signer ${signer}`);
  }
  const cairoVersion = raw.cairoVersion === '0' ? '0' : '1';
  const acc = await findWalletAccount(net, signer, 'signerAddress');
  if (!v3.query) {
    await confirmOrReject('Sign transaction', [
      ['Requested by', ctx.origin],
      ['Network', net.name],
      ['Signer', acc.address],
      ...(await describeCalls(net, calls)),
      ['Nonce', BigInt(v3.nonce).toString()],
      ['Max fee', formatUnits(maxFeeOf(v3.resourceBounds))],
    ]);
  }
  const sig = await new Signer(acc.keys.privateKey).signTransaction(calls, {
    ...v3,
    walletAddress: acc.address,
    cairoVersion,
    chainId: v3.chainId as never,
  });
  return stark.formatSignature(sig).map(normHex);
}
