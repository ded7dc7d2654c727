import type { NetworkConfig } from '../config';
import { chainCall, providerFor } from '../lib/chain';
import { optCalldata, type Params, reqAddress, reqString } from '../lib/params';

/**
 * stk_getValue: calls a view function (at the latest block).
 *
 * @param p - `{contractAddress, contractFuncName, contractCallData?}`.
 * @param net - The network.
 * @returns The call_contract shape `{result}`.
 */
export async function stk_getValue(p: Params, net: NetworkConfig): Promise<{ result: string[] }> {
  const contractAddress = reqAddress(p, 'contractAddress');
  const entrypoint = reqString(p, 'contractFuncName');
  const calldata = optCalldata(p, 'contractCallData');
  const result = await chainCall(net, `call ${entrypoint} on ${contractAddress}`, () =>
    providerFor(net).callContract({ contractAddress, entrypoint, calldata }, 'latest'),
  );
  return { result };
}
