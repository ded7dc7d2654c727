import { keccakPermutation } from './vm/libfuncs/keccakPermutation.js';

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
    keccakPermutation(state);
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
