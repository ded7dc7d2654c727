import type { ResourceBoundsBN } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount, signerAccount } from '../lib/accounts';
import { assertCanPayFee } from '../lib/balance';
import { chainCall, deployedClassHash } from '../lib/chain';
import { describeCalls } from '../lib/describeCalls';
import { type Field, confirmOrReject } from '../lib/dialogs';
import { invalidParam, SnapErrorCode, snapError } from '../lib/errors';
import { boundsTotal, resourceBoundsFor } from '../lib/fees';
import { formatUnits } from '../lib/format';
import { optAmount, optResourceBounds, type Params, reqAddress, reqCalls } from '../lib/params';
import { type AddTransactionResult, sendInvoke } from '../lib/send';
import type { RequestContext } from '../methods';

/**
 * stk_executeTxn: sends several calls as one INVOKE v3 transaction from `senderAddress`, after a dialog that shows
 * every call (decoded with the contract's ABI when the node has it), the fee limits and the network. Fee: the given
 * `resourceBounds`, else the estimate plus the snap's margin, capped by `maxFee` when given.
 *
 * @param p - `{senderAddress, calls: [{contractAddress, entrypoint, calldata?}], maxFee?, resourceBounds?}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns The add_transaction shape.
 */
export async function stk_executeTxn(
  p: Params,
  net: NetworkConfig,
  ctx: RequestContext,
): Promise<AddTransactionResult> {
  const sender = reqAddress(p, 'senderAddress');
  const calls = reqCalls(p, 'calls');
  const maxFee = optAmount(p, 'maxFee');
  const given = optResourceBounds(p, 'resourceBounds') as ResourceBoundsBN | undefined;
  if (given && maxFee !== undefined && boundsTotal(given) > maxFee) {
    throw invalidParam('resourceBounds', `authorise ${boundsTotal(given)}, more than maxFee ${maxFee}`);
  }
  const acc = await findWalletAccount(net, sender, 'senderAddress');
  const label = calls.length === 1 ? calls[0]!.entrypoint : `multicall(${calls.length})`;
  // the deployment check and the estimate go to the node together; a missing account is reported first
  const [classHash, estimated] = await Promise.all([
    deployedClassHash(net, acc.address),
    given
      ? undefined
      : chainCall(net, `estimate the fee of ${label}`, () =>
          signerAccount(net, acc).estimateInvokeFee(calls, { tip: 0 }),
        ).then(
          (e) => ({ ok: true as const, e }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
  ]);
  if (classHash === undefined) {
    throw snapError(
      SnapErrorCode.AccountNotDeployed,
      `The sender ${acc.address} is not deployed on ${net.name} yet; deploy it with stk_createAccount {deploy: true} (after funding it) and wait until it is accepted`,
    );
  }
  if (estimated && !estimated.ok) throw estimated.error;
  const estimate = estimated?.e;
  const resourceBounds = given ?? resourceBoundsFor(estimate!, maxFee);
  await assertCanPayFee(net, acc.address, boundsTotal(resourceBounds), label);
  await confirmOrReject(calls.length === 1 ? 'Send transaction' : `Send ${calls.length} calls in one transaction`, [
    ['Requested by', ctx.origin],
    ['Network', net.name],
    ['From', acc.address],
    ...(await describeCalls(net, calls)),
    ...(estimate ? ([['Estimated fee', formatUnits(BigInt(estimate.overall_fee))]] as Field[]) : []),
    ['Max fee', formatUnits(boundsTotal(resourceBounds))],
  ]);
  return sendInvoke(net, acc, calls, label, resourceBounds);
}
