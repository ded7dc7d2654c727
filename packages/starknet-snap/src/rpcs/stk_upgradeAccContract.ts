import type { RequestContext } from '../methods';
import type { NetworkConfig } from '../config';
import { findWalletAccount, signerAccount } from '../lib/accounts';
import { chainCall, deployedClassHash } from '../lib/chain';
import { confirmOrReject } from '../lib/dialogs';
import { SnapErrorCode, snapError } from '../lib/errors';
import { assertCanPayFee } from '../lib/balance';
import { boundsTotal, resourceBoundsFor } from '../lib/fees';
import { formatUnits } from '../lib/format';
import { normHex } from '../lib/keys';
import { optAmount, type Params, reqAddress } from '../lib/params';
import { type AddTransactionResult, sendInvoke } from '../lib/send';

/**
 * stk_upgradeAccContract: after the user confirms, upgrades the account to the network's newest account class
 * (`upgrade(new_class_hash, [])` on the account itself).
 *
 * @param p - `{contractAddress, maxFee?}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns The add_transaction shape.
 */
export async function stk_upgradeAccContract(
  p: Params,
  net: NetworkConfig,
  ctx: RequestContext,
): Promise<AddTransactionResult> {
  const address = reqAddress(p, 'contractAddress');
  const maxFee = optAmount(p, 'maxFee');
  const acc = await findWalletAccount(net, address, 'contractAddress');
  const current = await deployedClassHash(net, acc.address);
  if (current === undefined) {
    throw snapError(
      SnapErrorCode.AccountNotDeployed,
      `The account ${acc.address} is not deployed on ${net.name}; deploy it before upgrading`,
    );
  }
  const target = normHex(net.latestAccountClassHash);
  if (BigInt(current) === BigInt(target)) {
    throw snapError(
      SnapErrorCode.UpgradeNotNeeded,
      `The account ${acc.address} already runs the newest account class ${target}; no upgrade is needed`,
    );
  }
  const call = { contractAddress: acc.address, entrypoint: 'upgrade', calldata: [target, '0x0'] };
  const estimate = await chainCall(net, `estimate the fee of upgrading ${acc.address}`, () =>
    signerAccount(net, acc).estimateInvokeFee(call, { tip: 0 }),
  );
  // The cap is checked before the dialog, so the user is never asked to approve a fee that cannot be paid.
  const resourceBounds = resourceBoundsFor(estimate, maxFee);
  await assertCanPayFee(net, acc.address, boundsTotal(resourceBounds), 'upgrade');
  await confirmOrReject('Upgrade account', [
    ['Requested by', ctx.origin],
    ['Network', net.name],
    ['Account', acc.address],
    ['Current class', normHex(current)],
    ['New class', target],
    ['Estimated fee', formatUnits(BigInt(estimate.overall_fee))],
  ]);
  return sendInvoke(net, acc, call, 'upgrade', resourceBounds);
}
