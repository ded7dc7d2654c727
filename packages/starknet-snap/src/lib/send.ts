import type { Call, ResourceBoundsBN } from 'starknet';
import type { NetworkConfig } from '../config';
import { updateState, getState } from '../state/store';
import { addTransaction, nextNonce } from '../state/transitions';
import { type WalletAccount, signerAccount } from './accounts';
import { chainCall, providerFor } from './chain';
import type { StarkKeyPair } from './keys';
import { KeyedMutex } from './mutex';
import { nowSeconds } from './format';

// Sends from one account are serialised from nonce choice to stored record, so back-to-back sends get distinct nonces.
const senderLocks = new KeyedMutex();

/** The add_transaction shape. */
export interface AddTransactionResult {
  code: 'TRANSACTION_RECEIVED';
  transaction_hash: string;
}

/**
 * Signs and sends an invoke from a wallet account and stores its record. The nonce is the larger of the node's
 * pre-confirmed nonce and one past the account's newest stored in-flight transaction.
 *
 * @param net - The network.
 * @param acc - The sender with its keys.
 * @param call - The call.
 * @param funcName - The function name to record.
 * @param resourceBounds - The fee bounds the user confirmed (see `resourceBoundsFor`).
 * @returns The add_transaction shape.
 */
export async function sendInvoke(
  net: NetworkConfig,
  acc: WalletAccount & { keys: StarkKeyPair },
  call: Call & { calldata: string[] },
  funcName: string,
  resourceBounds: ResourceBoundsBN,
): Promise<AddTransactionResult> {
  return senderLocks.run(`${net.chainId}:${acc.address}`, async () => {
    const chainNonce = await chainCall(net, `read the nonce of ${acc.address}`, () =>
      providerFor(net).getNonceForAddress(acc.address, 'pre_confirmed'),
    );
    const nonce = nextNonce(await getState(), net.chainId, acc.address, BigInt(chainNonce), nowSeconds());
    const sent = await chainCall(net, `send ${funcName} to ${call.contractAddress}`, () =>
      signerAccount(net, acc).execute(call, { nonce, resourceBounds, tip: 0 }),
    );
    await updateState((s) =>
      addTransaction(s, {
        chainId: net.chainId,
        txnHash: sent.transaction_hash,
        txnType: 'INVOKE',
        senderAddress: acc.address,
        contractAddress: call.contractAddress,
        contractFuncName: funcName,
        contractCallData: call.calldata,
        nonce: `0x${nonce.toString(16)}`,
        status: 'RECEIVED',
        timestamp: nowSeconds(),
      }),
    );
    return { code: 'TRANSACTION_RECEIVED', transaction_hash: sent.transaction_hash };
  });
}
