import type { RequestContext } from '../methods';
import type { NetworkConfig } from '../config';
import { accountAt, signerAccount } from '../lib/accounts';
import { chainCall, deployedClassHash } from '../lib/chain';
import { confirmOrReject } from '../lib/dialogs';
import { SnapErrorCode, snapError } from '../lib/errors';
import { assertCanPayFee } from '../lib/balance';
import { boundsTotal, resourceBoundsFor } from '../lib/fees';
import { formatUnits, nowSeconds } from '../lib/format';
import { accountConstructorCalldata } from '../lib/keys';
import { optBool, optIndex, type Params } from '../lib/params';
import { getState, updateState } from '../state/store';
import { accountsOf, addTransaction, upsertAccount } from '../state/transitions';

/** Result of stk_createAccount: the address, plus the add_transaction shape when deployed. */
export type CreateAccountResult =
  | { address: string }
  | { code: 'TRANSACTION_RECEIVED'; transaction_hash: string; address: string };

/**
 * stk_createAccount: computes the account at `addressIndex` (default: the lowest index not stored yet) and, with
 * `deploy: true`, after the user confirms, sends its deploy transaction and stores it as initializing.
 *
 * @param p - `{addressIndex?, deploy?}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns `{address}` or `{code, transaction_hash, address}`.
 * @example
 * ```ts
 * await ethereum.request({ method: 'wallet_invokeSnap', params: { snapId, request: { method: 'stk_createAccount', params: { deploy: true } } } });
 * ```
 */
export async function stk_createAccount(
  p: Params,
  net: NetworkConfig,
  ctx: RequestContext,
): Promise<CreateAccountResult> {
  const deploy = optBool(p, 'deploy', false);
  let index = optIndex(p, 'addressIndex');
  if (index === undefined) {
    const used = new Set(accountsOf(await getState(), net.chainId).map((a) => a.addressIndex));
    index = 0;
    while (used.has(index)) index++;
  }
  const acc = await accountAt(net, index);
  if (!deploy) return { address: acc.address };

  const deployedClass = await deployedClassHash(net, acc.address);
  if (deployedClass) {
    throw snapError(
      SnapErrorCode.AccountAlreadyDeployed,
      `The account ${acc.address} (address index ${index}) is already deployed on ${net.name}; use it directly or call stk_recoverAccounts to store it`,
    );
  }
  const payload = {
    classHash: net.accountClassHash,
    constructorCalldata: accountConstructorCalldata(acc.publicKey),
    addressSalt: acc.publicKey,
    contractAddress: acc.address,
  };
  const signer = signerAccount(net, acc);
  const estimate = await chainCall(net, `estimate the deploy fee of ${acc.address}`, () =>
    signer.estimateAccountDeployFee(payload, { tip: 0 }),
  );
  const resourceBounds = resourceBoundsFor(estimate);
  await assertCanPayFee(net, acc.address, boundsTotal(resourceBounds), 'deploy');
  await confirmOrReject('Deploy account', [
    ['Requested by', ctx.origin],
    ['Network', net.name],
    ['Account address', acc.address],
    ['Address index', String(index)],
    ['Estimated fee', formatUnits(BigInt(estimate.overall_fee))],
  ]);
  const sent = await chainCall(net, `deploy the account ${acc.address}`, () =>
    signer.deployAccount(payload, { resourceBounds, tip: 0 }),
  );
  await updateState((s) =>
    addTransaction(
      upsertAccount(s, {
        chainId: net.chainId,
        address: acc.address,
        addressIndex: index,
        publicKey: acc.publicKey,
        classHash: net.accountClassHash,
        deployTxnHash: sent.transaction_hash,
        status: 'initializing',
      }),
      {
        chainId: net.chainId,
        txnHash: sent.transaction_hash,
        txnType: 'DEPLOY_ACCOUNT',
        senderAddress: acc.address,
        contractAddress: acc.address,
        contractFuncName: 'deploy_account',
        contractCallData: payload.constructorCalldata,
        nonce: '0x0',
        status: 'RECEIVED',
        timestamp: nowSeconds(),
      },
    ),
  );
  return { code: 'TRANSACTION_RECEIVED', transaction_hash: sent.transaction_hash, address: acc.address };
}
