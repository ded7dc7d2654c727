// Keccak-f[1600], the permutation under keccak256 (internal helper of starknet_keccak and of keccak_syscall).

const MASK64 = (1n << 64n) - 1n;
/** ι: the round constants. */
const ROUND_CONSTANTS = [
  0x0000000000000001n,
  0x0000000000008082n,
  0x800000000000808an,
  0x8000000080008000n,
  0x000000000000808bn,
  0x0000000080000001n,
  0x8000000080008081n,
  0x8000000000008009n,
  0x000000000000008an,
  0x0000000000000088n,
  0x0000000080008009n,
  0x000000008000000an,
  0x000000008000808bn,
  0x800000000000008bn,
  0x8000000000008089n,
  0x8000000000008003n,
  0x8000000000008002n,
  0x8000000000000080n,
  0x000000000000800an,
  0x800000008000000an,
  0x8000000080008081n,
  0x8000000000008080n,
  0x0000000080000001n,
  0x8000000080008008n,
];
/** ρ: the rotation of lane x + 5y. */
const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
/** π: lane x + 5y moves to lane y + 5((2x + 3y) mod 5). */
const DESTINATIONS = ROTATIONS.map((_, i) => {
  const x = i % 5;
  const y = Math.floor(i / 5);
  return y + 5 * ((2 * x + 3 * y) % 5);
});
const SHIFTS = ROTATIONS.map((r) => [BigInt(r), BigInt(64 - r)] as const);

const rotl = (v: bigint, i: number): bigint => {
  const [l, r] = SHIFTS[i]!;
  return l === 0n ? v : ((v << l) | (v >> r)) & MASK64;
};

// Scratch lanes, reused by every call (the permutation is synchronous).
const c = new Array<bigint>(5).fill(0n);
const b = new Array<bigint>(25).fill(0n);

/**
 * Applies Keccak-f[1600] in place to `state`: 25 lanes of 64 bits (lane `x + 5y` holds bytes `8(x + 5y)…` of the
 * state, little-endian), 24 rounds of θ, ρ, π, χ and ι.
 *
 * @example
 * const s = new Array<bigint>(25).fill(0n);
 * s[0] = 1n; // absorb a block
 * keccakPermutation(s);
 */
export function keccakPermutation(state: bigint[]): void {
  if (state.length !== 25) throw new RangeError('Keccak-f[1600] takes 25 lanes');
  for (const rc of ROUND_CONSTANTS) {
    for (let x = 0; x < 5; x++) c[x] = state[x]! ^ state[x + 5]! ^ state[x + 10]! ^ state[x + 15]! ^ state[x + 20]!;
    for (let x = 0; x < 5; x++) {
      const cr = c[(x + 1) % 5]!;
      const d = c[(x + 4) % 5]! ^ (((cr << 1n) | (cr >> 63n)) & MASK64);
      for (let y = 0; y < 25; y += 5) state[x + y] = state[x + y]! ^ d;
    }
    for (let i = 0; i < 25; i++) b[DESTINATIONS[i]!] = rotl(state[i]!, i);
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        state[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK64 & b[((x + 2) % 5) + y]!);
      }
    }
    state[0] = state[0]! ^ rc;
  }
}
