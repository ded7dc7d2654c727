import { Signer, stark } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { confirmOrReject } from '../lib/dialogs';
import { invalidParam } from '../lib/errors';
import { formatUnits } from '../lib/format';
import { accountAddress, accountConstructorCalldata, normHex } from '../lib/keys';
import { optCalldata, type Params, reqAddress, reqHash } from '../lib/params';
import { maxFeeOf, v3Details } from '../lib/signerDetails';
import type { RequestContext } from '../methods';

/**
 * stk_signDeployAccountTransaction: signs (does not send) a DEPLOY_ACCOUNT v3 of this wallet's account at
 * `signerAddress`, for a dApp's starknet.js signer. The class, salt and constructor calldata in the details must give
 * that address, so the signature cannot deploy anything else; a dialog shows the account, the nonce and the fee limit.
 *
 * @param p - `{signerAddress, details: V3DeployAccountSignerDetails}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns The signature `[r, s]` (hex).
 */
export async function stk_signDeployAccountTransaction(
  p: Params,
  net: NetworkConfig,
  ctx: RequestContext,
): Promise<string[]> {
  const signer = reqAddress(p, 'signerAddress');
  const { raw, v3 } = v3Details(p, net);
  const classHash = reqHash({ 'details.classHash': raw.classHash }, 'details.classHash');
  const salt = reqHash({ 'details.addressSalt': raw.addressSalt ?? '0x0' }, 'details.addressSalt');
  const constructorCalldata = optCalldata(raw, 'constructorCalldata');
  const acc = await findWalletAccount(net, signer, 'signerAddress');
  const expected = accountConstructorCalldata(acc.publicKey);
  const sameCalldata =
    constructorCalldata.length === expected.length &&
    constructorCalldata.every((c, i) => BigInt(c) === BigInt(expected[i]!));
  if (
    !sameCalldata ||
    BigInt(salt) !== BigInt(acc.publicKey) ||
    BigInt(accountAddress(acc.publicKey, classHash)) !== BigInt(acc.address)
  ) {
    throw invalidParam('details', `class hash, salt and constructor calldata do not give the account ${acc.address}`);
  }
  if (!v3.query) {
    await confirmOrReject('Sign account deployment', [
      ['Requested by', ctx.origin],
      ['Network', net.name],
      ['Account', acc.address],
      ['Class hash', classHash],
      ['Max fee', formatUnits(maxFeeOf(v3.resourceBounds))],
    ]);
  }
  const sig = await new Signer(acc.keys.privateKey).signDeployAccountTransaction({
    ...v3,
    classHash,
    addressSalt: salt,
    constructorCalldata,
    contractAddress: acc.address,
    chainId: v3.chainId as never,
  });
  return stark.formatSignature(sig).map(normHex);
}
