/**
 * The postman: L1 ↔ L2 messaging between the dev chain and an Ethereum node (by default the embedded anvil when
 * nodegate starts both). Messages sent on L1 to the messaging contract (`LogMessageToL2`) become L1_HANDLER
 * transactions on flush; messages sent by L2 contracts (`send_message_to_l1_syscall`) are collected from the mined
 * blocks and, on flush, made consumable on L1 (`mockSendMessageFromL2`), so that `consumeMessageFromL2` works there.
 */
import type { Chain, StoredTx } from '../chain/Chain.js';
import type { Tx } from '../chain/transaction.js';
import { DevchainError, ErrorCode } from '../errors.js';
import { toHex } from '../felt.js';
import { decodeMessageLog } from './decodeMessageLog.js';
import { createL1Client, type L1Client } from './l1/createL1Client.js';
import { MESSAGING_CREATION_CODE, MESSAGING_SELECTORS, MESSAGING_TOPICS } from './l1/messagingContract.js';
import { l1HandlerTransaction, type MessageFromL1 } from './l1HandlerTransaction.js';
import { l2ToL1MessageHash } from './messageHashes.js';

/** An L2 → L1 message. */
export interface MessageToL1 {
  from: bigint;
  to: bigint;
  payload: bigint[];
}

/** What the postman needs of the node that owns it. */
export interface PostmanHost {
  readonly chain: Chain;
  /** Accepts the L1_HANDLER transaction of a message (as the node mines: at once, or later). */
  submitL1Handler(tx: Tx): StoredTx;
}

/** An L1 → L2 message as devnet_postmanFlush answers it. */
export type MessageToL2Json = {
  l1_transaction_hash?: string;
  l2_contract_address: string;
  entry_point_selector: string;
  l1_contract_address: string;
  payload: string[];
  paid_fee_on_l1: string;
  nonce: string;
};

/** An L2 → L1 message as devnet_postmanFlush answers it. */
export type MessageToL1Json = { from_address: string; to_address: string; payload: string[] };

/** What devnet_postmanFlush answers. */
export interface FlushResult {
  messages_to_l1: MessageToL1Json[];
  messages_to_l2: MessageToL2Json[];
  generated_l2_transactions: string[];
  /** The L1 node (without credentials), or `dry run`. */
  l1_provider: string;
}

/** An Ethereum address as 0x and 40 hex digits. */
export const ethAddress = (v: bigint) => `0x${v.toString(16).padStart(40, '0')}`;
const word = (v: bigint) => v.toString(16).padStart(64, '0');
/** The calldata of a contract call: the 4-byte selector, then ABI words. */
const abiCall = (selector: number, words: readonly bigint[]) =>
  `0x${selector.toString(16).padStart(8, '0')}${words.map(word).join('')}`;

/** The L1 side once loaded. */
interface LoadedL1 {
  client: L1Client;
  contract: string;
  /** The unlocked account the postman's L1 transactions come from. */
  sender: string;
  /** The last L1 block whose messages were fetched. */
  lastFetched: bigint;
}

/**
 * The postman of one dev chain node.
 *
 * @example
 * const address = await node.postman.load(new URL('http://127.0.0.1:8545'));
 * const flushed = await node.postman.flush(false);
 */
export class Postman {
  private l1: LoadedL1 | undefined;
  /** The chain whose mined blocks were collected, and the next block to collect. */
  private collected: { chain: Chain; next: number } | undefined;
  /** L2 → L1 messages collected and not yet sent to L1. */
  private toFlush: MessageToL1[] = [];
  /** L2 → L1 messages that devnet_postmanConsumeMessageFromL2 may still consume, by hash. */
  private readonly consumable = new Map<string, number>();
  /** The L1_HANDLER transactions each L1 transaction started, in order (starknet_getMessagesStatus). */
  private readonly byL1Transaction = new Map<bigint, bigint[]>();
  /** Loads and flushes run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: PostmanHost) {}

  private serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The messaging contract's address and L1 node, once loaded. */
  get loaded(): { contract: string; l1: string } | undefined {
    return this.l1 && { contract: this.l1.contract, l1: this.l1.client.shownUrl };
  }

  /**
   * Uses the Ethereum node at `url` as L1: attaches the messaging contract at `address` (it must have code), or
   * deploys nodegate's (`l1/messagingContract.ts`) from the node's first unlocked account. Messages sent on L1 from
   * then on are flushed. Returns the contract's address.
   */
  load(url: URL, address?: string): Promise<string> {
    return this.serial(async () => {
      const client = createL1Client(url);
      await client.chainId();
      const lastFetched = await client.blockNumber();
      const [sender] = await client.accounts();
      if (!sender) {
        throw new DevchainError(ErrorCode.DEVNET_ERROR, {
          message: `L1 node ${client.shownUrl} has no unlocked account to send the postman's transactions from`,
        });
      }
      let contract: string;
      if (address !== undefined) {
        const code = await client.getCode(address);
        if (!code || code === '0x') {
          throw new DevchainError(ErrorCode.DEVNET_ERROR, {
            message: `The specified address (${address.toLowerCase()}) contains no contract on ${client.shownUrl}`,
          });
        }
        contract = address.toLowerCase();
      } else {
        const receipt = await client.transact({ from: sender, data: MESSAGING_CREATION_CODE });
        if (!receipt.contractAddress) {
          throw new DevchainError(ErrorCode.DEVNET_ERROR, { message: 'the messaging contract was not deployed' });
        }
        contract = receipt.contractAddress.toLowerCase();
      }
      this.l1 = { client, contract, sender, lastFetched };
      return contract;
    });
  }

  /**
   * Flushes both queues: messages sent on L1 since the last flush become L1_HANDLER transactions (their L1 copies
   * marked consumed), then the L2 → L1 messages of the blocks mined since are sent to L1. A dry run reads nothing on
   * L1 and sends nothing: it answers the L2 → L1 messages waiting.
   */
  flush(dryRun: boolean): Promise<FlushResult> {
    return this.serial(async () => {
      const l1 = this.l1;
      if (!dryRun && !l1) {
        throw new DevchainError(ErrorCode.DEVNET_ERROR, {
          message: 'L1 messaging is not set up: call devnet_postmanLoad with the L1 node first',
        });
      }
      const toL2: MessageToL2Json[] = [];
      const generated: string[] = [];
      if (!dryRun && l1) {
        const latest = await l1.client.blockNumber();
        const logs =
          latest > l1.lastFetched
            ? await l1.client.getLogs({
                address: l1.contract,
                topics: [`0x${word(MESSAGING_TOPICS.LogMessageToL2)}`],
                fromBlock: l1.lastFetched + 1n,
                toBlock: latest,
              })
            : [];
        if (latest > l1.lastFetched) l1.lastFetched = latest;
        for (const log of logs) {
          const m = decodeMessageLog(log);
          if (!m) continue;
          toL2.push(messageToL2Json(m, log.transactionHash));
          let handled: StoredTx;
          try {
            handled = this.host.submitL1Handler(l1HandlerTransaction(m));
          } catch (e) {
            // no contract or no such L1 handler at the target, or a message already handled: never on L2
            if (e instanceof DevchainError) continue;
            throw e;
          }
          this.remember(BigInt(log.transactionHash), handled.hash);
          generated.push(toHex(handled.hash));
          await l1.client.transact({
            from: l1.sender,
            to: l1.contract,
            data: abiCall(MESSAGING_SELECTORS.mockConsumeMessageToL2, [
              m.from,
              m.to,
              m.selector,
              0xa0n,
              m.nonce,
              BigInt(m.payload.length),
              ...m.payload,
            ]),
          });
        }
      }
      this.collect();
      const toL1 = this.toFlush.map(messageToL1Json);
      if (!dryRun && l1) {
        while (this.toFlush.length > 0) {
          const m = this.toFlush[0]!;
          await l1.client.transact({
            from: l1.sender,
            to: l1.contract,
            data: abiCall(MESSAGING_SELECTORS.mockSendMessageFromL2, [
              m.from,
              m.to,
              0x60n,
              BigInt(m.payload.length),
              ...m.payload,
            ]),
          });
          this.toFlush.shift();
        }
      }
      return {
        messages_to_l1: toL1,
        messages_to_l2: toL2,
        generated_l2_transactions: generated,
        l1_provider: dryRun || !l1 ? 'dry run' : l1.client.shownUrl,
      };
    });
  }

  /**
   * A message from L1 without an L1 (devnet_postmanSendMessageToL2): its L1_HANDLER transaction, accepted as a
   * flushed one would be; `l1TransactionHash` makes it known to starknet_getMessagesStatus.
   */
  sendMessageToL2(m: MessageFromL1, l1TransactionHash?: bigint): bigint {
    const handled = this.host.submitL1Handler(l1HandlerTransaction(m));
    if (l1TransactionHash !== undefined) this.remember(l1TransactionHash, handled.hash);
    return handled.hash;
  }

  /**
   * Consumes an L2 → L1 message without an L1 (devnet_postmanConsumeMessageFromL2): the message must have been sent
   * by a mined L2 transaction and not consumed this way yet. Returns its hash.
   */
  consumeMessageFromL2(m: MessageToL1): string {
    this.collect();
    const hash = l2ToL1MessageHash(m);
    const count = this.consumable.get(hash) ?? 0;
    if (count === 0) {
      throw new DevchainError(ErrorCode.DEVNET_ERROR, {
        message: `Message with hash ${hash} is not present in the L2 → L1 messages of this dev chain`,
      });
    }
    if (count === 1) this.consumable.delete(hash);
    else this.consumable.set(hash, count - 1);
    return hash;
  }

  /** The L1_HANDLER transactions an L1 transaction's messages started, or undefined when none is known. */
  messagesOf(l1TransactionHash: bigint): readonly bigint[] | undefined {
    return this.byL1Transaction.get(l1TransactionHash);
  }

  private remember(l1TransactionHash: bigint, l2TransactionHash: bigint): void {
    const list = this.byL1Transaction.get(l1TransactionHash);
    if (list) list.push(l2TransactionHash);
    else this.byL1Transaction.set(l1TransactionHash, [l2TransactionHash]);
  }

  /**
   * Collects the L2 → L1 messages of the succeeded transactions in the blocks mined since the last collection (the
   * pre-confirmed block waits until it is mined). After a restart, a load or aborted blocks, collection goes on
   * from the new chain's blocks that were not collected yet.
   */
  private collect(): void {
    const chain = this.host.chain;
    let next = this.collected?.next ?? 0;
    if (this.collected && this.collected.chain !== chain) next = Math.min(next, chain.latestNumber + 1);
    for (let n = next; n <= chain.latestNumber; n++) {
      const block = chain.blockByNumber(n);
      if (!block) continue; // a forked chain's blocks before the fork are the origin's
      for (const t of block.txs) {
        if (t.receipt.execution_status !== 'SUCCEEDED') continue;
        for (const sent of t.receipt.messages_sent as MessageToL1Json[]) {
          const m = { from: BigInt(sent.from_address), to: BigInt(sent.to_address), payload: sent.payload.map(BigInt) };
          this.toFlush.push(m);
          const hash = l2ToL1MessageHash(m);
          this.consumable.set(hash, (this.consumable.get(hash) ?? 0) + 1);
        }
      }
    }
    this.collected = { chain, next: chain.latestNumber + 1 };
  }
}

function messageToL1Json(m: MessageToL1): MessageToL1Json {
  return { from_address: toHex(m.from), to_address: ethAddress(m.to), payload: m.payload.map(toHex) };
}

function messageToL2Json(m: MessageFromL1, l1TransactionHash: string): MessageToL2Json {
  return {
    l1_transaction_hash: l1TransactionHash,
    l2_contract_address: toHex(m.to),
    entry_point_selector: toHex(m.selector),
    l1_contract_address: ethAddress(m.from),
    payload: m.payload.map(toHex),
    paid_fee_on_l1: toHex(m.paidFee),
    nonce: toHex(m.nonce),
  };
}
