import { hash, type RpcProvider } from 'starknet';
import { STRK_TOKEN_ADDRESS, type NetworkConfig } from '../config';
import type { ExecutionStatus, TxRecord, TxType } from '../state/transitions';
import { chainCall, providerFor } from './chain';
import { normHex } from './keys';
import { walletStatusOf } from './txStatus';

const TRANSFER_KEY = hash.getSelectorFromName('Transfer');
/** Function names the history can recognise from a call's selector. */
const KNOWN_FUNCTIONS = ['transfer', 'transfer_from', 'transferFrom', 'approve', 'upgrade', 'deploy_contract', 'mint'];
const NAME_BY_SELECTOR = new Map(KNOWN_FUNCTIONS.map((n) => [BigInt(hash.getSelectorFromName(n)), n]));
/** Upper bound on event pages read for one history request. */
export const MAX_EVENT_PAGES = 200;

/**
 * The first block whose timestamp is at or after `since` (binary search over block headers).
 *
 * @param net - The network.
 * @param since - Unix seconds.
 * @returns The block number (latest + 1 when every block is older).
 */
export async function firstBlockSince(net: NetworkConfig, since: number): Promise<number> {
  const provider = providerFor(net);
  const latest = await chainCall(net, 'read the latest block number', () => provider.getBlockNumber());
  const ts = async (n: number) =>
    (await chainCall(net, `read block ${n}`, () => provider.getBlockWithTxHashes(n))).timestamp as number;
  if ((await ts(latest)) < since) return latest + 1;
  let lo = 0;
  let hi = latest;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await ts(mid)) >= since) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A Transfer event of the fee token, normalised over both layouts (from/to as keys or as data). */
function transferFrom(ev: { keys: string[]; data: string[] }): string | undefined {
  if (ev.keys.length >= 3) return ev.keys[1];
  return ev.data[0];
}

/**
 * Transaction hashes sent by `sender` since block `fromBlock`, found through the fee token's Transfer events
 * (every v3 transaction pays its fee with a Transfer from the sender), paging with `chunk_size` = `pageSize`.
 *
 * @param net - The network.
 * @param sender - The account address.
 * @param fromBlock - First block to read.
 * @param pageSize - Events per page.
 * @returns Hashes with their block number, oldest first, without duplicates.
 */
export async function senderTransactionHashes(
  net: NetworkConfig,
  sender: string,
  fromBlock: number,
  pageSize: number,
): Promise<{ hash: string; block: number }[]> {
  const provider = providerFor(net);
  const seen = new Map<string, number>();
  let token: string | undefined;
  for (let page = 0; page < MAX_EVENT_PAGES; page++) {
    const res = await chainCall(net, `read the transfer events of ${sender}`, () =>
      provider.getEvents({
        address: STRK_TOKEN_ADDRESS,
        keys: [[TRANSFER_KEY]],
        from_block: { block_number: fromBlock },
        to_block: 'latest',
        chunk_size: pageSize,
        ...(token ? { continuation_token: token } : {}),
      }),
    );
    for (const ev of res.events) {
      const from = transferFrom(ev);
      if (from && BigInt(from) === BigInt(sender) && ev.transaction_hash && !seen.has(normHex(ev.transaction_hash))) {
        seen.set(normHex(ev.transaction_hash), ev.block_number ?? 0);
      }
    }
    token = res.continuation_token;
    if (!token) break;
  }
  return [...seen].map(([h, block]) => ({ hash: h, block }));
}

type RawTx = {
  type: string;
  sender_address?: string;
  contract_address?: string;
  calldata?: string[];
  constructor_calldata?: string[];
  nonce?: string;
};

/**
 * Builds a transaction record from the node's transaction, receipt and block timestamp.
 *
 * @param net - The network.
 * @param provider - The provider.
 * @param txHash - The transaction hash.
 * @param timestamps - Cache of block timestamps.
 * @returns The record.
 */
export async function recordFromChain(
  net: NetworkConfig,
  provider: RpcProvider,
  txHash: string,
  timestamps: Map<number, number>,
): Promise<TxRecord> {
  const [tx, receipt] = await Promise.all([
    chainCall(net, `read transaction ${txHash}`, () => provider.getTransactionByHash(txHash)) as Promise<RawTx>,
    chainCall(net, `read the receipt of ${txHash}`, () => provider.getTransactionReceipt(txHash)),
  ]);
  const r = receipt as unknown as {
    finality_status: string;
    execution_status?: string;
    revert_reason?: string;
    block_number?: number;
    contract_address?: string;
  };
  let timestamp = 0;
  if (r.block_number !== undefined) {
    const cached = timestamps.get(r.block_number);
    if (cached !== undefined) timestamp = cached;
    else {
      const bn = r.block_number;
      const block = await chainCall(net, `read block ${bn}`, () => provider.getBlockWithTxHashes(bn));
      timestamp = block.timestamp as number;
      timestamps.set(bn, timestamp);
    }
  }
  const isDeploy = tx.type === 'DEPLOY_ACCOUNT';
  const sender = normHex(isDeploy ? (r.contract_address ?? '0x0') : (tx.sender_address ?? '0x0'));
  let contractAddress = sender;
  let funcName = isDeploy ? 'deploy_account' : 'unknown';
  let callData: string[] = isDeploy ? (tx.constructor_calldata ?? []) : [];
  if (!isDeploy && tx.calldata && tx.calldata.length >= 4) {
    // Cairo 1 __execute__ calldata: [n_calls, to, selector, len, ...data, ...]
    const cd = tx.calldata;
    contractAddress = normHex(cd[1]!);
    const sel = BigInt(cd[2]!);
    funcName = NAME_BY_SELECTOR.get(sel) ?? normHex(cd[2]!);
    const len = Number(BigInt(cd[3]!));
    callData = cd.slice(4, 4 + len).map(normHex);
  }
  const txnType: TxType = isDeploy ? 'DEPLOY_ACCOUNT' : 'INVOKE';
  return {
    chainId: net.chainId,
    txnHash: normHex(txHash),
    txnType,
    senderAddress: sender,
    contractAddress,
    contractFuncName: funcName,
    contractCallData: callData,
    nonce: normHex(tx.nonce ?? '0x0'),
    status: walletStatusOf(r.finality_status),
    ...(r.execution_status ? { executionStatus: r.execution_status as ExecutionStatus } : {}),
    ...(r.revert_reason ? { failureReason: r.revert_reason } : {}),
    timestamp,
  };
}
