// The Hades permutation of Starknet's Poseidon (width 3, 8 full and 83 partial rounds, cube S-box), internal.
import { createHash } from 'node:crypto';
import { FIELD_PRIME as P } from '../../constants.js';
import { modP } from './common.js';

const FULL = 8;
const PARTIAL = 83;
let constants: bigint[][] | undefined;

/** Round constants: sha256 of `Hades<index>` read big-endian, mod P (StarkWare's derivation). */
const roundConstants = (): bigint[][] => {
  constants ??= Array.from({ length: FULL + PARTIAL }, (_, round) =>
    [0, 1, 2].map((j) =>
      modP(
        BigInt(
          `0x${createHash('sha256')
            .update(`Hades${3 * round + j}`)
            .digest('hex')}`,
        ),
      ),
    ),
  );
  return constants;
};

/** Applies the Hades permutation to a state of three felts. */
export function hadesPermutation(s0: bigint, s1: bigint, s2: bigint): [bigint, bigint, bigint] {
  const rc = roundConstants();
  let [a, b, c] = [s0, s1, s2];
  for (let r = 0; r < FULL + PARTIAL; r++) {
    const k = rc[r]!;
    a = (a + k[0]!) % P;
    b = (b + k[1]!) % P;
    c = (c + k[2]!) % P;
    const full = r < FULL / 2 || r >= FULL / 2 + PARTIAL;
    if (full) {
      a = (a * a * a) % P;
      b = (b * b * b) % P;
    }
    c = (c * c * c) % P;
    // MDS [[3, 1, 1], [1, -1, 1], [1, 1, -2]]
    const t = a + b + c;
    [a, b, c] = [modP(t + 2n * a), modP(t - 2n * b), modP(t - 3n * c)];
  }
  return [a, b, c];
}
