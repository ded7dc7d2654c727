import { type Call, TransactionType } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount, signerAccount } from '../lib/accounts';
import { chainCall, deployedClassHash } from '../lib/chain';
import { type FeeEstimateResult, toFeeEstimateResult } from '../lib/fees';
import { accountConstructorCalldata } from '../lib/keys';
import { optCalldata, type Params, reqAddress, reqString } from '../lib/params';

/**
 * stk_estimateFee: the fee of calling `contractFuncName` on `contractAddress` from `senderAddress`; when the sender
 * is not deployed yet, the estimate covers its deploy followed by the call.
 *
 * @param p - `{contractAddress, contractFuncName, contractCallData?, senderAddress}`.
 * @param net - The network.
 * @returns The estimate_fee shape, plus `includesDeploy`.
 */
export async function stk_estimateFee(
  p: Params,
  net: NetworkConfig,
): Promise<FeeEstimateResult & { includesDeploy: boolean }> {
  const contractAddress = reqAddress(p, 'contractAddress');
  const entrypoint = reqString(p, 'contractFuncName');
  const calldata = optCalldata(p, 'contractCallData');
  const sender = reqAddress(p, 'senderAddress');
  const acc = await findWalletAccount(net, sender, 'senderAddress');
  const signer = signerAccount(net, acc);
  const call: Call = { contractAddress, entrypoint, calldata };
  const deployed = (await deployedClassHash(net, acc.address)) !== undefined;
  if (deployed) {
    const est = await chainCall(net, `estimate the fee of ${entrypoint} on ${contractAddress}`, () =>
      signer.estimateInvokeFee(call, { tip: 0 }),
    );
    return { ...toFeeEstimateResult([est]), includesDeploy: false };
  }
  const list = await chainCall(net, `estimate the fee of deploying ${acc.address} then calling ${entrypoint}`, () =>
    signer.estimateFeeBulk(
      [
        {
          type: TransactionType.DEPLOY_ACCOUNT,
          payload: {
            classHash: net.accountClassHash,
            constructorCalldata: accountConstructorCalldata(acc.publicKey),
            addressSalt: acc.publicKey,
            contractAddress: acc.address,
          },
        },
        { type: TransactionType.INVOKE, payload: [call] },
      ],
      { tip: 0, skipValidate: true },
    ),
  );
  return { ...toFeeEstimateResult(list), includesDeploy: true };
}
