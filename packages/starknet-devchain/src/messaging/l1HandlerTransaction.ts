/** The L1_HANDLER transaction a message from L1 becomes. */
import type { Tx } from '../chain/transaction.js';

/** A message from L1, as the postman reads it from a `LogMessageToL2` event or a client gives it. */
export interface MessageFromL1 {
  /** The L1 sender (an Ethereum address as a number). */
  from: bigint;
  /** The L2 contract that handles it. */
  to: bigint;
  /** The selector of its L1 handler. */
  selector: bigint;
  payload: bigint[];
  /** The core contract's nonce of the message (a part of the transaction hash). */
  nonce: bigint;
  /** What the sender paid on L1 (wei). */
  paidFee: bigint;
}

/**
 * The L1_HANDLER transaction of `m`: version 0, the message nonce, calldata `[from, ...payload]` (its hash is then
 * the one Starknet gives it, and its receipt's `message_hash` the message's L1 → L2 hash).
 *
 * @example
 * chain.hashOf(l1HandlerTransaction({ from: 0xabcn, to, selector, payload: [1n], nonce: 0n, paidFee: 1n }));
 */
export function l1HandlerTransaction(m: MessageFromL1): Tx {
  return {
    type: 'L1_HANDLER',
    version: 0n,
    baseVersion: 0,
    query: false,
    sender: m.to,
    nonce: m.nonce,
    signature: [],
    calldata: [m.from, ...m.payload],
    tip: 0n,
    paymasterData: [],
    accountDeploymentData: [],
    nonceDA: 'L1',
    feeDA: 'L1',
    entryPointSelector: m.selector,
  };
}
