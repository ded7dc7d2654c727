import { createCipheriv, createHash } from 'node:crypto';

/**
 * Deterministic pseudo-random bytes (AES-256-CTR keystream of `seed`), `chunk` bytes at a time:
 * large test payloads without holding them in memory.
 */
export function* pseudoRandomChunks(total: number, seed: string, chunk = 1 << 20): Generator<Uint8Array> {
  const key = createHash('sha256').update(seed).digest();
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  const zeros = new Uint8Array(chunk);
  for (let left = total; left > 0; left -= chunk) {
    yield new Uint8Array(cipher.update(zeros.subarray(0, Math.min(chunk, left))));
  }
}
