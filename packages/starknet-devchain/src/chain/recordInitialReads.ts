import { toHex } from '../felt.js';
import type { StateReader } from './state.js';

/** The state values a run read before it wrote them, in the spec's INITIAL_READS shape. */
export interface InitialReads {
  storage: { contract_address: string; key: string; value: string }[];
  nonces: { contract_address: string; nonce: string }[];
  class_hashes: { contract_address: string; class_hash: string }[];
  declared_contracts: { class_hash: string; is_declared: boolean }[];
}

/**
 * Wraps a state reader so that the first value read of every storage slot, nonce, class hash
 * and class declaration is remembered (reads served from a run's own writes never reach it, as
 * the overlay above answers them). `initialReads()` lists them for RETURN_INITIAL_READS.
 *
 * @example
 * const recorder = recordInitialReads(chainState);
 * runTransactions(new StateOverlay(recorder));
 * recorder.initialReads().storage;
 */
export function recordInitialReads(inner: StateReader): StateReader & { initialReads(): InitialReads } {
  const storage = new Map<string, { contract_address: string; key: string; value: string }>();
  const nonces = new Map<bigint, bigint>();
  const classHashes = new Map<bigint, bigint>();
  const declared = new Map<bigint, boolean>();
  return {
    getStorage(address, key) {
      const value = inner.getStorage(address, key);
      const id = `${address}:${key}`;
      if (!storage.has(id)) storage.set(id, { contract_address: toHex(address), key: toHex(key), value: toHex(value) });
      return value;
    },
    getNonce(address) {
      const nonce = inner.getNonce(address);
      if (!nonces.has(address)) nonces.set(address, nonce);
      return nonce;
    },
    getClassHashAt(address) {
      const h = inner.getClassHashAt(address);
      if (!classHashes.has(address)) classHashes.set(address, h ?? 0n);
      return h;
    },
    getDeclared(classHash) {
      const d = inner.getDeclared(classHash);
      if (!declared.has(classHash)) declared.set(classHash, d !== undefined);
      return d;
    },
    initialReads() {
      return {
        storage: [...storage.values()],
        nonces: [...nonces].map(([a, n]) => ({ contract_address: toHex(a), nonce: toHex(n) })),
        class_hashes: [...classHashes].map(([a, h]) => ({ contract_address: toHex(a), class_hash: toHex(h) })),
        declared_contracts: [...declared].map(([h, is]) => ({ class_hash: toHex(h), is_declared: is })),
      };
    },
  };
}
