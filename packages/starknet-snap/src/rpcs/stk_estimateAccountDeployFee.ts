import type { NetworkConfig } from '../config';
import { accountAt, signerAccount } from '../lib/accounts';
import { chainCall } from '../lib/chain';
import { type FeeEstimateResult, toFeeEstimateResult } from '../lib/fees';
import { accountConstructorCalldata } from '../lib/keys';
import { optIndex, type Params } from '../lib/params';

/**
 * stk_estimateAccountDeployFee: the fee to deploy the account at `addressIndex` (default 0).
 *
 * @param p - `{addressIndex?}`.
 * @param net - The network.
 * @returns The estimate_fee shape.
 */
export async function stk_estimateAccountDeployFee(p: Params, net: NetworkConfig): Promise<FeeEstimateResult> {
  const index = optIndex(p, 'addressIndex') ?? 0;
  const acc = await accountAt(net, index);
  const signer = signerAccount(net, acc);
  const est = await chainCall(net, `estimate the deploy fee of ${acc.address}`, () =>
    signer.estimateAccountDeployFee(
      {
        classHash: net.accountClassHash,
        constructorCalldata: accountConstructorCalldata(acc.publicKey),
        addressSalt: acc.publicKey,
        contractAddress: acc.address,
      },
      { tip: 0 },
    ),
  );
  return toFeeEstimateResult([est]);
}
