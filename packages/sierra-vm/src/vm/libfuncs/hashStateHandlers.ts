import type { HandlerFactory, LibfuncHandler, Value } from '../types.js';
import { big } from './common.js';
import { blake2sCompress } from './blake2s.js';

const identity: LibfuncHandler = (a, out) => {
  out[0] = a[0]!;
  return 0;
};
const words = (v: Value | undefined): number[] => (v as bigint[]).map((w) => Number(w));

/** `(Box<[u32; 8]> state, u32 byte count, Box<[u32; 16]> block)` → the new state. */
const blake =
  (last: boolean): HandlerFactory =>
  () =>
  (a, out) => {
    const h = blake2sCompress(words(a[0]), words(a[2]), Number(big(a[1])), last);
    out[0] = h.map((w) => BigInt(w));
    return 0;
  };

/**
 * Handlers of the hash state libfuncs that are not syscalls: `blake2s_compress` / `blake2s_finalize` (the BLAKE2s
 * compression, the second one with the last-block flag; the counter is the byte count given) and the SHA-256 /
 * SHA-512 state handles, which are the boxed state itself (`[u32; 8]` / `[u64; 8]`): `*_state_handle_init` and
 * `*_state_handle_digest` pass it through (the blocks are processed by `sha*_process_block_syscall`).
 */
export const HASH_STATE_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  blake2s_compress: blake(false),
  blake2s_finalize: blake(true),
  sha256_state_handle_init: () => identity,
  sha256_state_handle_digest: () => identity,
  sha512_state_handle_init: () => identity,
  sha512_state_handle_digest: () => identity,
};
