/** Block commitments and block hash. */
import { poseidon, snKeccakBytes } from '../crypto/hashes.js';
import { shortString } from '../felt.js';
import type { StateDiff } from './state.js';

function feltBytes(values: readonly bigint[]): Uint8Array {
  const out = new Uint8Array(values.length * 32);
  values.forEach((v, i) => {
    let x = v;
    for (let j = 31; j >= 0; j--) {
      out[i * 32 + j] = Number(x & 0xffn);
      x >>= 8n;
    }
  });
  return out;
}

/** A commitment to a list of felt lists (sn_keccak over length-prefixed big-endian felts). */
export function listCommitment(items: readonly (readonly bigint[])[]): bigint {
  const flat: bigint[] = [BigInt(items.length)];
  for (const it of items) flat.push(BigInt(it.length), ...it);
  return snKeccakBytes(feltBytes(flat));
}

/** Number of entries in a state diff and its commitment. */
export function stateDiffCommitment(diff: StateDiff): { length: number; commitment: bigint } {
  const items: bigint[][] = [];
  for (const [a, c] of diff.deployed) items.push([0n, a, c]);
  for (const [a, c] of diff.replaced) items.push([1n, a, c]);
  for (const [h, d] of diff.declared) items.push([2n, h, d.compiledClassHash]);
  for (const [a, n] of diff.nonces) items.push([3n, a, n]);
  for (const [a, slots] of diff.storage) for (const [k, v] of slots) items.push([4n, a, k, v]);
  return { length: items.length, commitment: listCommitment(items) };
}

/** Header fields hashed into the block hash. */
export interface HeaderFields {
  number: number;
  newRoot: bigint;
  sequencer: bigint;
  timestamp: number;
  transactionCount: number;
  eventCount: number;
  stateDiffLength: number;
  stateDiffCommitment: bigint;
  transactionCommitment: bigint;
  eventCommitment: bigint;
  receiptCommitment: bigint;
  gasPrices: readonly bigint[];
  starknetVersion: string;
  parentHash: bigint;
}

const PREFIX = shortString('STARKNET_BLOCK_HASH1');

/** The block hash: Poseidon over the header fields (laid out as the 0.13.2+ protocol lays them out) and the parent hash. */
export function blockHash(h: HeaderFields): bigint {
  const counts =
    (BigInt(h.transactionCount) << 192n) + (BigInt(h.eventCount) << 128n) + (BigInt(h.stateDiffLength) << 64n);
  return poseidon([
    PREFIX,
    BigInt(h.number),
    h.newRoot,
    h.sequencer,
    BigInt(h.timestamp),
    counts,
    h.stateDiffCommitment,
    h.transactionCommitment,
    h.eventCommitment,
    h.receiptCommitment,
    listCommitment([h.gasPrices]),
    shortString(h.starknetVersion),
    0n,
    h.parentHash,
  ]);
}
