/**
 * Block commitments and the block hash as the protocol (0.13.4+, "STARKNET_BLOCK_HASH1") computes
 * them: Poseidon Patricia roots (height 64) over transaction, event and receipt leaves, the Poseidon
 * state-diff hash, the concatenated counts and the gas-prices hash. Checked against the sequencer's
 * regression vectors in `commitments.test.ts`.
 */
import { poseidonHash } from '@nodegate/sierra-vm';
import { poseidon, snKeccak } from '../crypto/hashes.js';
import { FIELD_PRIME, shortString } from '../felt.js';
import type { StateDiff } from './state.js';

const HEIGHT = 64;

/** Root of the height-64 Patricia tree whose leaves are `values` at keys 0, 1, 2, …. */
export function patriciaRoot(values: readonly bigint[]): bigint {
  if (values.length === 0) return 0n;
  const bit = (key: number, height: number) => (BigInt(key) >> BigInt(HEIGHT - 1 - height)) & 1n;
  const node = (lo: number, hi: number, height: number): bigint => {
    if (height === HEIGHT) return values[lo]!;
    let p = lo;
    while (p < hi && bit(p, height) === 0n) p++;
    if (p < hi) return poseidonHash(node(lo, p, height + 1), node(p, hi, height + 1));
    let zeros = 1;
    let h = height + 1;
    while (h < HEIGHT && bit(hi - 1, h) === 0n) {
      zeros++;
      h++;
    }
    return (poseidonHash(node(lo, hi, height + zeros), 0n) + BigInt(zeros)) % FIELD_PRIME;
  };
  return node(0, values.length, 0);
}

/** Transaction leaf: Poseidon(hash, ...signature). */
export function transactionLeaf(hash: bigint, signature: readonly bigint[]): bigint {
  return poseidon([hash, ...signature]);
}

/** An event with the hash of its transaction. */
export interface EventForHash {
  from: bigint;
  txHash: bigint;
  keys: readonly bigint[];
  data: readonly bigint[];
}

/** Event leaf: Poseidon(from, tx_hash, n_keys, keys…, n_data, data…). */
export function eventLeaf(e: EventForHash): bigint {
  return poseidon([e.from, e.txHash, BigInt(e.keys.length), ...e.keys, BigInt(e.data.length), ...e.data]);
}

/** An L2→L1 message. */
export interface MessageForHash {
  from: bigint;
  to: bigint;
  payload: readonly bigint[];
}

/** A receipt's hashed fields. */
export interface ReceiptForHash {
  txHash: bigint;
  actualFee: bigint;
  messages: readonly MessageForHash[];
  revertReason?: string | undefined;
  l1Gas: bigint;
  l1DataGas: bigint;
}

/** Hash of the messages sent by a transaction. */
export function messagesHash(messages: readonly MessageForHash[]): bigint {
  const chain: bigint[] = [BigInt(messages.length)];
  for (const m of messages) chain.push(m.from, m.to, BigInt(m.payload.length), ...m.payload);
  return poseidon(chain);
}

/** Receipt leaf: Poseidon(tx_hash, fee, messages hash, sn_keccak(revert reason) or 0, 0, l1_gas, l1_data_gas). */
export function receiptLeaf(r: ReceiptForHash): bigint {
  return poseidon([
    r.txHash,
    r.actualFee,
    messagesHash(r.messages),
    r.revertReason === undefined ? 0n : snKeccak(r.revertReason),
    0n,
    r.l1Gas,
    r.l1DataGas,
  ]);
}

const byKey = <V>(m: Map<bigint, V>) => [...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

/** Number of entries in a state diff. */
export function stateDiffLength(d: StateDiff): number {
  let n = d.deployed.size + d.replaced.size + d.declared.size + d.nonces.size;
  for (const slots of d.storage.values()) n += slots.size;
  return n;
}

/** The state-diff commitment ("STARKNET_STATE_DIFF0"). */
export function stateDiffHash(d: StateDiff): bigint {
  const updated = new Map<bigint, bigint>([...d.deployed, ...d.replaced]);
  const chain: bigint[] = [shortString('STARKNET_STATE_DIFF0'), BigInt(updated.size)];
  for (const [a, c] of byKey(updated)) chain.push(a, c);
  chain.push(BigInt(d.declared.size));
  for (const [h, c] of byKey(d.declared)) chain.push(h, c.compiledClassHash);
  chain.push(0n, 1n, 0n);
  const storage = byKey(d.storage).filter(([, slots]) => slots.size > 0);
  chain.push(BigInt(storage.length));
  for (const [a, slots] of storage) {
    chain.push(a, BigInt(slots.size));
    for (const [k, v] of byKey(slots)) chain.push(k, v);
  }
  chain.push(BigInt(d.nonces.size));
  for (const [a, n] of byKey(d.nonces)) chain.push(a, n);
  return poseidon(chain);
}

/** transaction_count | event_count | state_diff_length (64 bits each) | DA-mode bit (blob = 1) | zeros. */
export function concatCounts(txs: number, events: number, stateDiffLen: number, blob: boolean): bigint {
  return (BigInt(txs) << 192n) + (BigInt(events) << 128n) + (BigInt(stateDiffLen) << 64n) + (blob ? 1n << 63n : 0n);
}

/** Gas prices of a header, as hashed ("STARKNET_GAS_PRICES0"). */
export interface HeaderPrices {
  l1Wei: bigint;
  l1Fri: bigint;
  l1DataWei: bigint;
  l1DataFri: bigint;
  l2Wei: bigint;
  l2Fri: bigint;
}

/** The gas-prices hash of 0.13.4+ headers. */
export function gasPricesHash(p: HeaderPrices): bigint {
  const key = `${p.l1Wei}:${p.l1Fri}:${p.l1DataWei}:${p.l1DataFri}:${p.l2Wei}:${p.l2Fri}`;
  let h = gasPricesCache.get(key);
  if (h === undefined) {
    h = poseidon([shortString('STARKNET_GAS_PRICES0'), p.l1Wei, p.l1Fri, p.l1DataWei, p.l1DataFri, p.l2Wei, p.l2Fri]);
    if (gasPricesCache.size > 100) gasPricesCache.clear();
    gasPricesCache.set(key, h);
  }
  return h;
}

const gasPricesCache = new Map<string, bigint>();

/** Header fields hashed into the block hash. */
export interface BlockHashInput {
  number: number;
  stateRoot: bigint;
  sequencer: bigint;
  timestamp: number;
  concatCounts: bigint;
  stateDiffCommitment: bigint;
  transactionCommitment: bigint;
  eventCommitment: bigint;
  receiptCommitment: bigint;
  prices: HeaderPrices;
  starknetVersion: string;
  parentHash: bigint;
}

/** The 0.13.4+ block hash: Poseidon over the header fields and the parent hash. */
export function blockHash(h: BlockHashInput): bigint {
  return poseidon([
    shortString('STARKNET_BLOCK_HASH1'),
    BigInt(h.number),
    h.stateRoot,
    h.sequencer,
    BigInt(h.timestamp),
    h.concatCounts,
    h.stateDiffCommitment,
    h.transactionCommitment,
    h.eventCommitment,
    h.receiptCommitment,
    gasPricesHash(h.prices),
    shortString(h.starknetVersion),
    0n,
    h.parentHash,
  ]);
}
