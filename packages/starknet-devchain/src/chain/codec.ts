/** JSON encoding of chain records (bigints, Maps) for the data directory and devnet_dump. */
import type { StateDiff } from './state.js';

const BIG = '\u0000n:';

/** JSON.stringify with bigint support. */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${BIG}${v.toString(16)}` : v));
}

/** JSON.parse restoring bigints written by {@link encodeJson}. */
export function decodeJson<T>(text: string): T {
  return JSON.parse(text, (_k, v) =>
    typeof v === 'string' && v.startsWith(BIG) ? BigInt(`0x${v.slice(BIG.length)}`) : v,
  ) as T;
}

/** A state diff with Maps turned into arrays. */
export interface EncodedDiff {
  storage: [bigint, [bigint, bigint][]][];
  nonces: [bigint, bigint][];
  deployed: [bigint, bigint][];
  replaced: [bigint, bigint][];
  declared: [bigint, StateDiff['declared'] extends Map<bigint, infer V> ? V : never][];
}

/** Encode a state diff. */
export function encodeDiff(d: StateDiff): EncodedDiff {
  return {
    storage: [...d.storage].map(([a, m]) => [a, [...m]]),
    nonces: [...d.nonces],
    deployed: [...d.deployed],
    replaced: [...d.replaced],
    declared: [...d.declared],
  };
}

/** Decode a state diff. */
export function decodeDiff(e: EncodedDiff): StateDiff {
  return {
    storage: new Map(e.storage.map(([a, m]) => [a, new Map(m)])),
    nonces: new Map(e.nonces),
    deployed: new Map(e.deployed),
    replaced: new Map(e.replaced),
    declared: new Map(e.declared),
  };
}
