import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { deployedClassHash } from '../lib/chain';
import { SnapErrorCode, snapError } from '../lib/errors';
import { accountConstructorCalldata } from '../lib/keys';
import { type Params, reqAddress } from '../lib/params';
import { getState } from '../state/store';
import { findAccount } from '../state/transitions';

/** The wallet API's deployment data of an account that is not deployed yet. */
export interface DeploymentData {
  address: string;
  class_hash: string;
  salt: string;
  calldata: string[];
  sigdata: string[];
  version: 1;
}

/**
 * stk_getDeploymentData: what a dApp needs to deploy this wallet's account itself (for example in a paymaster's
 * deploy-and-invoke): class hash, salt (the public key), constructor calldata. Refused once the account is deployed.
 *
 * No dialog, on purpose: nothing is signed, nothing moves, and the data can only deploy this wallet's own account
 * (the address is fixed by the class, the salt and the owner key; whoever pays for the deployment, the account that
 * appears is the user's). What it reveals is the public key, which stk_extractPublicKey already gives without a
 * dialog (and get_owner gives to anyone once deployed). Paymaster flows ask for it without the user acting, so a
 * confirmation here would only teach people to click through dialogs. Only origins MetaMask has connected to the
 * snap can call it, and only for accounts derived from this wallet's phrase.
 *
 * @param p - `{address}`.
 * @param net - The network.
 * @returns The deployment data (Cairo 1 account: `version` 1).
 */
export async function stk_getDeploymentData(p: Params, net: NetworkConfig): Promise<DeploymentData> {
  const address = reqAddress(p, 'address');
  const acc = await findWalletAccount(net, address, 'address');
  if ((await deployedClassHash(net, acc.address)) !== undefined) {
    throw snapError(SnapErrorCode.AccountAlreadyDeployed, `Account ${acc.address} is already deployed on ${net.name}`);
  }
  const stored = findAccount(await getState(), net.chainId, acc.address);
  return {
    address: acc.address,
    class_hash: stored?.classHash ?? net.accountClassHash,
    salt: acc.publicKey,
    calldata: accountConstructorCalldata(acc.publicKey),
    sigdata: [],
    version: 1,
  };
}
