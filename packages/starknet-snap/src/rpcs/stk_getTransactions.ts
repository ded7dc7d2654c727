import type { NetworkConfig } from '../config';
import { chainCall, providerFor } from '../lib/chain';
import { invalidParam } from '../lib/errors';
import { nowSeconds } from '../lib/format';
import { firstBlockSince, recordFromChain, senderTransactionHashes } from '../lib/history';
import { optAddress, optBool, optInt, type Params, reqAddress } from '../lib/params';
import { refreshInFlight } from '../lib/refresh';
import { updateState } from '../state/store';
import { applyTransactionStatus, canAdvance, type TxRecord, transactionsOf } from '../state/transitions';

/**
 * stk_getTransactions: the sender's transactions, newest first: history read from nodegate (the sender's fee
 * Transfer events since `txnsInLastNumOfDays` days, paged by `pageSize`) merged with the records this snap stored.
 * With `onlyFromState` only stored records are returned (after refreshing their status).
 *
 * @param p - `{senderAddress, contractAddress?, pageSize?, txnsInLastNumOfDays?, withDeployTxn?, onlyFromState?}`.
 * @param net - The network.
 * @returns The records.
 */
export async function stk_getTransactions(p: Params, net: NetworkConfig): Promise<TxRecord[]> {
  const sender = reqAddress(p, 'senderAddress');
  const contract = optAddress(p, 'contractAddress');
  const pageSize = optInt(p, 'pageSize', 10, 10, 50);
  if (![10, 25, 50].includes(pageSize)) throw invalidParam('pageSize', 'must be 10, 25 or 50');
  const days = optInt(p, 'txnsInLastNumOfDays', 5, 1, 3650);
  const withDeploy = optBool(p, 'withDeployTxn', false);
  const onlyFromState = optBool(p, 'onlyFromState', false);
  const since = nowSeconds() - days * 86400;

  const state = await refreshInFlight(net, (s) => BigInt(s) === BigInt(sender));
  const byHash = new Map<string, TxRecord>();
  for (const t of transactionsOf(state, net.chainId, sender)) byHash.set(t.txnHash, t);

  if (!onlyFromState) {
    const provider = providerFor(net);
    const fromBlock = await firstBlockSince(net, since);
    const hashes = await senderTransactionHashes(net, sender, fromBlock, pageSize);
    const timestamps = new Map<number, number>();
    const fromChain = await chainCall(net, `read the history of ${sender}`, () =>
      Promise.all(hashes.map((h) => recordFromChain(net, provider, h.hash, timestamps))),
    );
    for (const rec of fromChain) {
      const stored = [...byHash.values()].find((t) => BigInt(t.txnHash) === BigInt(rec.txnHash));
      if (!stored) byHash.set(rec.txnHash, rec);
      else if (canAdvance(stored.status, rec.status)) {
        byHash.set(stored.txnHash, {
          ...stored,
          status: rec.status,
          ...(rec.executionStatus ? { executionStatus: rec.executionStatus } : {}),
          ...(rec.failureReason ? { failureReason: rec.failureReason } : {}),
        });
      }
    }
    await updateState((s) =>
      fromChain.reduce(
        (acc, rec) =>
          applyTransactionStatus(acc, net.chainId, rec.txnHash, {
            status: rec.status,
            ...(rec.executionStatus ? { executionStatus: rec.executionStatus } : {}),
            ...(rec.failureReason ? { failureReason: rec.failureReason } : {}),
          }),
        s,
      ),
    );
  }

  return [...byHash.values()]
    .filter((t) => t.timestamp >= since || t.status === 'RECEIVED' || t.status === 'PENDING')
    .filter((t) => withDeploy || t.txnType !== 'DEPLOY_ACCOUNT')
    .filter((t) => !contract || BigInt(t.contractAddress) === BigInt(contract))
    .sort((a, b) => b.timestamp - a.timestamp || Number(BigInt(b.nonce) - BigInt(a.nonce)));
}
