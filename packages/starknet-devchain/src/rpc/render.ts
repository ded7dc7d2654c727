/** Rendering of blocks, transactions and receipts into spec 0.10 shapes. */
import { type Block, type Chain, type PendingBlock, STARKNET_VERSION, type StoredTx } from '../chain/Chain.js';
import { toWireTransaction } from './toWireTransaction.js';
import { toHex } from '../felt.js';
import type { GasPrices } from '../chain/gas.js';

function prices(p: GasPrices) {
  return {
    l1_gas_price: { price_in_fri: toHex(p.fri.l1), price_in_wei: toHex(p.wei.l1) },
    l2_gas_price: { price_in_fri: toHex(p.fri.l2), price_in_wei: toHex(p.wei.l2) },
    l1_data_gas_price: { price_in_fri: toHex(p.fri.l1Data), price_in_wei: toHex(p.wei.l1Data) },
    l1_da_mode: 'BLOB',
    starknet_version: STARKNET_VERSION,
  };
}

/** The header of a mined block (with status). */
export function renderBlockHeader(chain: Chain, b: Block): Record<string, unknown> {
  return {
    status: chain.isAcceptedOnL1(b.number) ? 'ACCEPTED_ON_L1' : 'ACCEPTED_ON_L2',
    block_hash: toHex(b.hash),
    parent_hash: toHex(b.parentHash),
    block_number: b.number,
    new_root: toHex(b.newRoot),
    timestamp: b.timestamp,
    sequencer_address: toHex(chain.config.sequencer),
    ...prices(b.prices),
    event_commitment: toHex(b.eventCommitment),
    transaction_commitment: toHex(b.transactionCommitment),
    receipt_commitment: toHex(b.receiptCommitment),
    state_diff_commitment: toHex(b.stateDiffCommitment),
    event_count: b.events.length,
    transaction_count: b.txs.length,
    state_diff_length: b.stateDiffLength,
  };
}

/** The header of the pre-confirmed block. */
export function renderPendingHeader(chain: Chain, p: PendingBlock): Record<string, unknown> {
  return {
    block_number: p.number,
    timestamp: chain.now(),
    sequencer_address: toHex(chain.config.sequencer),
    ...prices(chain.gasPrices),
  };
}

/** A transaction object. */
export function renderTransaction(t: StoredTx): Record<string, unknown> {
  return toWireTransaction(t.tx, t.hash);
}

/** A receipt without block info (inside blocks). */
export function renderReceipt(chain: Chain, t: StoredTx): Record<string, unknown> {
  return { ...t.receipt, finality_status: finalityOf(chain, t) };
}

/** The finality status of a stored transaction. */
export function finalityOf(chain: Chain, t: StoredTx): 'PRE_CONFIRMED' | 'ACCEPTED_ON_L2' | 'ACCEPTED_ON_L1' {
  if (chain.isPending(t)) return 'PRE_CONFIRMED';
  return chain.isAcceptedOnL1(t.blockNumber) ? 'ACCEPTED_ON_L1' : 'ACCEPTED_ON_L2';
}

/** A receipt with block info (getTransactionReceipt). */
export function renderReceiptWithBlock(chain: Chain, t: StoredTx): Record<string, unknown> {
  const r: Record<string, unknown> = { ...renderReceipt(chain, t), block_number: t.blockNumber };
  if (!chain.isPending(t)) r.block_hash = toHex(chain.blockByNumber(t.blockNumber)!.hash);
  return r;
}
