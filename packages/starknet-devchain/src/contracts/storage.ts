/** Storage addresses as Cairo computes them: sn_keccak(var name), Pedersen-chained map keys. */
import { pedersen, snKeccak } from '../crypto/hashes.js';

const ADDR_BOUND = 2n ** 251n - 256n;
const varCache = new Map<string, bigint>();
const mapCache = new Map<string, bigint>();

/** Address of a storage variable. */
export function storageVar(name: string): bigint {
  let v = varCache.get(name);
  if (v === undefined) {
    v = snKeccak(name);
    varCache.set(name, v);
  }
  return v;
}

/** Address of a map entry `name[k0][k1]…`. */
export function storageMap(name: string, ...keys: bigint[]): bigint {
  const cacheKey = `${name}:${keys.join(':')}`;
  let v = mapCache.get(cacheKey);
  if (v === undefined) {
    v = storageVar(name);
    for (const k of keys) v = pedersen(v, k);
    v %= ADDR_BOUND;
    if (mapCache.size > 200_000) mapCache.clear();
    mapCache.set(cacheKey, v);
  }
  return v;
}
