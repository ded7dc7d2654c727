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

/** What a stored record says about a sent transaction. */
interface SentRecord {
  txnType: 'INVOKE' | 'DECLARE';
  contractAddress: string;
  contractFuncName: string;
  contractCallData: readonly string[];
}

/**
 * Runs `send` with the next nonce of `acc` and stores its record, serialised per sender from nonce choice to stored
 * record (so back-to-back sends get distinct nonces). The nonce is the larger of the node's pre-confirmed nonce and
 * one past the account's newest stored in-flight transaction.
 *
 * @param net - The network.
 * @param acc - The sender.
 * @param what - What is sent, for error messages.
 * @param record - What the stored record shows.
 * @param send - Signs and sends with the given nonce; resolves with the transaction hash.
 * @returns The add_transaction shape.
 */
export async function sendWithNextNonce(
  net: NetworkConfig,
  acc: WalletAccount,
  what: string,
  record: SentRecord,
  send: (nonce: bigint) => Promise<{ transaction_hash: string }>,
): Promise<AddTransactionResult> {
  return senderLocks.run(`${net.chainId}:${acc.address}`, async () => {
    const chainNonce = await chainCall(net, `read the nonce of ${acc.address}`, () =>
      providerFor(net).getNonceForAddress(acc.address, 'pre_confirmed'),
    );
    const nonce = nextNonce(await getState(), net.chainId, acc.address, BigInt(chainNonce), nowSeconds());
    const sent = await chainCall(net, what, () => send(nonce));
    await updateState((s) =>
      addTransaction(s, {
        chainId: net.chainId,
        txnHash: sent.transaction_hash,
        senderAddress: acc.address,
        nonce: `0x${nonce.toString(16)}`,
        status: 'RECEIVED',
        timestamp: nowSeconds(),
        ...record,
      }),
    );
    return { code: 'TRANSACTION_RECEIVED', transaction_hash: sent.transaction_hash };
  });
}

/**
 * Signs and sends an invoke of one or several calls (one transaction) from a wallet account and stores its record.
 *
 * @param net - The network.
 * @param acc - The sender with its keys.
 * @param calls - The call, or the calls of a multicall.
 * @param funcName - The function name to record (for a multicall, a summary such as `multicall(3)`).
 * @param resourceBounds - The fee bounds the user confirmed (see `resourceBoundsFor`).
 * @returns The add_transaction shape.
 */
export async function sendInvoke(
  net: NetworkConfig,
  acc: WalletAccount & { keys: StarkKeyPair },
  calls: (Call & { calldata: string[] }) | (Call & { calldata: string[] })[],
  funcName: string,
  resourceBounds: ResourceBoundsBN,
): Promise<AddTransactionResult> {
  const list = Array.isArray(calls) ? calls : [calls];
  const first = list[0]!;
  return sendWithNextNonce(
    net,
    acc,
    `send ${funcName} to ${first.contractAddress}`,
    {
      txnType: 'INVOKE',
      contractAddress: first.contractAddress,
      contractFuncName: funcName,
      contractCallData: list.length === 1 ? first.calldata : list.flatMap((c) => [c.contractAddress, ...c.calldata]),
    },
    (nonce) => signerAccount(net, acc).execute(list, { nonce, resourceBounds, tip: 0 }),
  );
}
