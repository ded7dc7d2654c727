import type { RequestContext } from '../methods';
import type { NetworkConfig } from '../config';
import { findWalletAccount, signerAccount } from '../lib/accounts';
import { chainCall, deployedClassHash } from '../lib/chain';
import { type Field, confirmOrReject } from '../lib/dialogs';
import { SnapErrorCode, snapError } from '../lib/errors';
import { assertCanPayFee } from '../lib/balance';
import { boundsTotal, resourceBoundsFor } from '../lib/fees';
import { formatUnits } from '../lib/format';
import { optAmount, optCalldata, type Params, reqAddress, reqString } from '../lib/params';
import { type AddTransactionResult, sendInvoke } from '../lib/send';

const TRANSFER_NAMES = new Set(['transfer', 'transfer_from', 'transferFrom']);

function transferFields(funcName: string, calldata: readonly string[]): Field[] {
  if (funcName === 'transfer' && calldata.length === 3) {
    const amount = BigInt(calldata[1]!) + (BigInt(calldata[2]!) << 128n);
    return [
      ['Recipient', calldata[0]!],
      ['Amount', `${amount} (${formatUnits(amount, 'tokens at 18 decimals')})`],
    ];
  }
  if (TRANSFER_NAMES.has(funcName) && calldata.length === 4) {
    const amount = BigInt(calldata[2]!) + (BigInt(calldata[3]!) << 128n);
    return [
      ['From', calldata[0]!],
      ['Recipient', calldata[1]!],
      ['Amount', `${amount} (${formatUnits(amount, 'tokens at 18 decimals')})`],
    ];
  }
  return [];
}

/**
 * stk_sendTransaction: after the user confirms (an ERC20 transfer shows its decoded recipient and amount), signs and
 * sends `contractFuncName(contractCallData)` on `contractAddress` from `senderAddress`. `maxFee` caps the total fee;
 * without it the fee is estimated.
 *
 * @param p - `{contractAddress, contractFuncName, contractCallData?, senderAddress, maxFee?}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns The add_transaction shape.
 */
export async function stk_sendTransaction(
  p: Params,
  net: NetworkConfig,
  ctx: RequestContext,
): Promise<AddTransactionResult> {
  const contractAddress = reqAddress(p, 'contractAddress');
  const funcName = reqString(p, 'contractFuncName');
  const calldata = optCalldata(p, 'contractCallData');
  const sender = reqAddress(p, 'senderAddress');
  const maxFee = optAmount(p, 'maxFee');
  const acc = await findWalletAccount(net, sender, 'senderAddress');
  if ((await deployedClassHash(net, acc.address)) === undefined) {
    throw snapError(
      SnapErrorCode.AccountNotDeployed,
      `The sender ${acc.address} is not deployed on ${net.name} yet; deploy it with stk_createAccount {deploy: true} (after funding it) and wait until it is accepted`,
    );
  }
  const call = { contractAddress, entrypoint: funcName, calldata };
  const estimate = await chainCall(net, `estimate the fee of ${funcName} on ${contractAddress}`, () =>
    signerAccount(net, acc).estimateInvokeFee(call, { tip: 0 }),
  );
  // The cap is checked before the dialog, so the user is never asked to approve a fee that cannot be paid.
  const resourceBounds = resourceBoundsFor(estimate, maxFee);
  await assertCanPayFee(net, acc.address, boundsTotal(resourceBounds), funcName);
  await confirmOrReject('Send transaction', [
    ['Requested by', ctx.origin],
    ['Network', net.name],
    ['From', acc.address],
    ['Contract', contractAddress],
    ['Function', funcName],
    ...transferFields(funcName, calldata),
    ...(calldata.length && !TRANSFER_NAMES.has(funcName) ? ([['Call data', calldata.join(', ')]] as Field[]) : []),
    ['Estimated fee', formatUnits(BigInt(estimate.overall_fee))],
    ...(maxFee !== undefined ? ([['Max fee', formatUnits(maxFee)]] as Field[]) : []),
  ]);
  return sendInvoke(net, acc, call, funcName, resourceBounds);
}
