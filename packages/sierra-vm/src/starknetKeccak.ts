const MASK64 = (1n << 64n) - 1n;
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
// Rotation offsets by lane index x + 5y.
const ROTATIONS = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

const rotl = (v: bigint, n: number): bigint => (n === 0 ? v : ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK64);

function keccakF(a: bigint[]): void {
  for (const rc of ROUND_CONSTANTS) {
    const c = [0, 1, 2, 3, 4].map((x) => a[x]! ^ a[x + 5]! ^ a[x + 10]! ^ a[x + 15]! ^ a[x + 20]!);
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5]! ^ rotl(c[(x + 1) % 5]!, 1);
      for (let y = 0; y < 25; y += 5) a[x + y] = a[x + y]! ^ d;
    }
    const b: bigint[] = new Array(25).fill(0n);
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y]!, ROTATIONS[x + 5 * y]!);
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) a[x + y] = b[x + y]! ^ (~b[((x + 1) % 5) + y]! & MASK64 & b[((x + 2) % 5) + y]!);
    }
    a[0] = a[0]! ^ rc;
  }
}

/** Keccak-256 (the original Keccak padding, as Ethereum and Starknet use it) of some bytes, as a bigint. */
function keccak256(data: Uint8Array): bigint {
  const rate = 136;
  const padded = new Uint8Array(Math.floor(data.length / rate + 1) * rate);
  padded.set(data);
  padded[data.length] = 0x01;
  padded[padded.length - 1]! |= 0x80;
  const state: bigint[] = new Array(25).fill(0n);
  const view = new DataView(padded.buffer);
  for (let block = 0; block < padded.length; block += rate) {
    for (let i = 0; i < rate / 8; i++) state[i] = state[i]! ^ view.getBigUint64(block + 8 * i, true);
    keccakF(state);
  }
  let out = 0n;
  for (let i = 0; i < 4; i++) {
    // Output bytes are the lanes little-endian; read as a big-endian number.
    const lane = state[i]!;
    for (let byte = 0; byte < 8; byte++) out = (out << 8n) | ((lane >> BigInt(8 * byte)) & 0xffn);
  }
  return out;
}

/**
 * starknet_keccak: keccak256 of the UTF-8 bytes of `text` (or of the given bytes), keeping the low 250 bits; how
 * the compiler writes the generic ids longer than 31 bytes (and how selectors are derived).
 */
export function starknetKeccak(text: string | Uint8Array): bigint {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return keccak256(bytes) & ((1n << 250n) - 1n);
}
