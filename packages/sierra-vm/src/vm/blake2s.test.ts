// blake2s_compress / blake2s_finalize against node:crypto's BLAKE2s-256 (wasm-cairo's compiler predates them).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findHandlerFactory } from './findHandlerFactory.js';
import { BLAKE2S_IV } from './libfuncs/blake2s.js';
import { parseSierraText } from './parseSierraText.js';
import { prepareProgram } from './prepareProgram.js';
import type { Value } from './types.js';
import { newRunContext } from './newRunContext.js';

const { program } = parseSierraText('type u32 = u32 [storable: true, drop: true, dup: true, zero_sized: false];');
const env = { program, registry: prepareProgram(program).registry };
const ctx = newRunContext();
const handler = (id: string) => findHandlerFactory(id)!({ id: 0, genericId: id, genericArgs: [] }, env);
const compress = handler('blake2s_compress');
const finalize = handler('blake2s_finalize');

/** BLAKE2s-256 of `bytes` the way Cairo code drives the libfuncs: 64-byte blocks, little-endian u32 words. */
function blake2s256(bytes: Uint8Array): string {
  let state: Value = BLAKE2S_IV.map((w, i) => BigInt(i === 0 ? (w ^ 0x01010020) >>> 0 : w));
  const blocks = Math.max(1, Math.ceil(bytes.length / 64));
  for (let b = 0; b < blocks; b++) {
    const block = new Uint8Array(64);
    block.set(bytes.subarray(b * 64, b * 64 + 64));
    const view = new DataView(block.buffer);
    const msg = Array.from({ length: 16 }, (_, i) => BigInt(view.getUint32(i * 4, true)));
    const last = b === blocks - 1;
    const count = BigInt(Math.min(bytes.length, (b + 1) * 64));
    const out: Value[] = [];
    expect((last ? finalize : compress)([state, count, msg], out, ctx)).toBe(0);
    state = out[0]!;
  }
  const digest = new DataView(new ArrayBuffer(32));
  (state as bigint[]).forEach((w, i) => {
    digest.setUint32(i * 4, Number(w), true);
  });
  return Buffer.from(digest.buffer).toString('hex');
}

describe('blake2s libfuncs', () => {
  it.each([0, 3, 64, 65, 200])('hash %i bytes as node:crypto does', (n) => {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);
    expect(blake2s256(bytes)).toBe(createHash('blake2s256').update(bytes).digest('hex'));
  });
  it('finalize differs from compress on the same block', () => {
    const state = BLAKE2S_IV.map(BigInt);
    const msg = new Array<bigint>(16).fill(1n);
    const a: Value[] = [];
    const b: Value[] = [];
    compress([state, 64n, msg], a, ctx);
    finalize([state, 64n, msg], b, ctx);
    expect(a[0]).not.toEqual(b[0]);
  });
});
