// The SHA-256 and SHA-512 compression functions checked against node:crypto on padded messages.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SHA256_IV, sha256Compress } from './sha256Compress.js';
import { SHA512_IV, sha512Compress } from './sha512Compress.js';

/** The message padded as FIPS 180-4 §5.1 says: 0x80, zeros, then the bit length in `lengthBytes` bytes. */
function pad(bytes: Uint8Array, blockBytes: number, lengthBytes: number): Uint8Array {
  const total = Math.ceil((bytes.length + 1 + lengthBytes) / blockBytes) * blockBytes;
  const out = new Uint8Array(total);
  out.set(bytes);
  out[bytes.length] = 0x80;
  new DataView(out.buffer).setBigUint64(total - 8, BigInt(bytes.length) * 8n);
  return out;
}

const message = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 151 + 7) & 0xff);
const LENGTHS = [0, 3, 55, 56, 63, 64, 111, 112, 128, 300];

describe('sha256Compress', () => {
  it('hashes padded messages as node:crypto does', () => {
    for (const n of LENGTHS) {
      const m = message(n);
      const padded = new DataView(pad(m, 64, 8).buffer);
      let state = [...SHA256_IV];
      for (let at = 0; at < padded.byteLength; at += 64) {
        const block = Array.from({ length: 16 }, (_, i) => padded.getUint32(at + 4 * i));
        state = sha256Compress(state, block);
      }
      const hex = state.map((w) => w.toString(16).padStart(8, '0')).join('');
      expect(hex, `length ${n}`).toBe(createHash('sha256').update(m).digest('hex'));
    }
  });

  it('refuses a block that is not 16 words', () => {
    expect(() => sha256Compress([...SHA256_IV], [1, 2, 3])).toThrow(RangeError);
  });
});

describe('sha512Compress', () => {
  it('hashes padded messages as node:crypto does', () => {
    for (const n of LENGTHS) {
      const m = message(n);
      const padded = new DataView(pad(m, 128, 16).buffer);
      let state = [...SHA512_IV];
      for (let at = 0; at < padded.byteLength; at += 128) {
        const block = Array.from({ length: 16 }, (_, i) => padded.getBigUint64(at + 8 * i));
        state = sha512Compress(state, block);
      }
      const hex = state.map((w) => w.toString(16).padStart(16, '0')).join('');
      expect(hex, `length ${n}`).toBe(createHash('sha512').update(m).digest('hex'));
    }
  });
});
