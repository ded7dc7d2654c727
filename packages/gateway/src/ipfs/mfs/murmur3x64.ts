const MASK = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & MASK;
const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK;
const add = (a: bigint, b: bigint): bigint => (a + b) & MASK;

function fmix(k: bigint): bigint {
  k ^= k >> 33n;
  k = mul(k, 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = mul(k, 0xc4ceb9fe1a85ec53n);
  k ^= k >> 33n;
  return k;
}

function u64le(bytes: Uint8Array, at: number, length: number): bigint {
  let v = 0n;
  for (let i = length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]!);
  return v;
}

/**
 * The first 64 bits of MurmurHash3 x64 128 (seed 0), big-endian: the `murmur3-x64-64` hash
 * that UnixFS HAMT directories place their entries by (Kubo's go-unixfs and the JS importer).
 *
 * @example
 * murmur3X64Hash64(new TextEncoder().encode('file-1')) // 8 bytes; byte d picks the slot at depth d
 */
export function murmur3X64Hash64(bytes: Uint8Array): Uint8Array {
  const length = bytes.byteLength;
  const blocks = Math.floor(length / 16);
  let h1 = 0n;
  let h2 = 0n;
  for (let i = 0; i < blocks; i++) {
    let k1 = u64le(bytes, i * 16, 8);
    let k2 = u64le(bytes, i * 16 + 8, 8);
    k1 = mul(rotl(mul(k1, C1), 31n), C2);
    h1 ^= k1;
    h1 = add(mul(add(rotl(h1, 27n), h2), 5n), 0x52dce729n);
    k2 = mul(rotl(mul(k2, C2), 33n), C1);
    h2 ^= k2;
    h2 = add(mul(add(rotl(h2, 31n), h1), 5n), 0x38495ab5n);
  }
  const tail = blocks * 16;
  const rest = length - tail;
  if (rest > 8) {
    const k2 = mul(rotl(mul(u64le(bytes, tail + 8, rest - 8), C2), 33n), C1);
    h2 ^= k2;
  }
  if (rest > 0) {
    const k1 = mul(rotl(mul(u64le(bytes, tail, Math.min(rest, 8)), C1), 31n), C2);
    h1 ^= k1;
  }
  h1 ^= BigInt(length);
  h2 ^= BigInt(length);
  h1 = add(h1, h2);
  h2 = add(h2, h1);
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 = add(h1, h2);
  const out = new Uint8Array(8);
  for (let i = 7; i >= 0; i--) {
    out[i] = Number(h1 & 0xffn);
    h1 >>= 8n;
  }
  return out;
}
