import { Signer, stark } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { confirmOrReject } from '../lib/dialogs';
import { invalidParam } from '../lib/errors';
import { formatUnits } from '../lib/format';
import { normHex } from '../lib/keys';
import { type Params, reqAddress, reqHash } from '../lib/params';
import { maxFeeOf, v3Details } from '../lib/signerDetails';
import type { RequestContext } from '../methods';

/**
 * stk_signDeclareTransaction: signs (does not send) a DECLARE v3 from `signerAddress`, for a dApp's starknet.js
 * signer, after a dialog with the class hash, the compiled class hash, the nonce and the fee limit.
 *
 * @param p - `{signerAddress, details: V3DeclareSignerDetails}` (`details.classHash`, `details.compiledClassHash`).
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns The signature `[r, s]` (hex).
 */
export async function stk_signDeclareTransaction(
  p: Params,
  net: NetworkConfig,
  ctx: RequestContext,
): Promise<string[]> {
  const signer = reqAddress(p, 'signerAddress');
  const { raw, v3 } = v3Details(p, net);
  const sender = typeof raw.senderAddress === 'string' ? raw.senderAddress : signer;
  if (BigInt(sender) !== BigInt(signer)) throw invalidParam('details.senderAddress', `must be the signer ${signer}`);
  const classHash = reqHash({ 'details.classHash': raw.classHash }, 'details.classHash');
  const compiledClassHash = reqHash(
    { 'details.compiledClassHash': raw.compiledClassHash },
    'details.compiledClassHash',
  );
  const acc = await findWalletAccount(net, signer, 'signerAddress');
  if (!v3.query) {
    await confirmOrReject('Sign declare transaction', [
      ['Requested by', ctx.origin],
      ['Network', net.name],
      ['Signer', acc.address],
      ['Class hash', classHash],
      ['Compiled class hash', compiledClassHash],
      ['Nonce', BigInt(v3.nonce).toString()],
      ['Max fee', formatUnits(maxFeeOf(v3.resourceBounds))],
    ]);
  }
  const sig = await new Signer(acc.keys.privateKey).signDeclareTransaction({
    ...v3,
    classHash,
    compiledClassHash,
    senderAddress: acc.address,
    chainId: v3.chainId as never,
  });
  return stark.formatSignature(sig).map(normHex);
}
