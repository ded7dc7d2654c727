// The Stark field module on WebAssembly (see scripts/generateStarkWasm.mjs): the Hades permutation and the Stark
// curve's point arithmetic, several times faster than bigint arithmetic since a field product is a few hundred 64-bit
// instructions and allocates nothing. This file loads it once and moves values in and out of its memory.
import { FIELD_PRIME as P } from '../../constants.js';
import { STARK_WASM_BASE64, STARK_WASM_LAYOUT } from './starkWasm.generated.js';

/** The part of the WebAssembly global used here (the ES2023 library has no WebAssembly types). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: StarkExports };
};

interface StarkExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  permute(): void;
  mul_table(table: number, windows: number): void;
  mul_point(bits: number): void;
  pedersen(t1: number, t2: number, t3: number, t4: number): void;
  to_mont(ptr: number, n: number): void;
}

/** Where the module takes and leaves values (bytes; written by the generator with the module). */
const { hadesState: STATE, acc: ACC, k1: K1, k2: K2, base: BASE, tables: TABLES } = STARK_WASM_LAYOUT;
/** One affine point of a table: x and y, 32 bytes each. */
const POINT_BYTES = 64;

let wasm: StarkExports | undefined;
let words = new BigUint64Array(0);
/** Where the next table goes. */
let tableEnd: number = TABLES;

function exportsOf(): StarkExports {
  if (wasm === undefined) {
    const module = new WebAssembly.Module(Buffer.from(STARK_WASM_BASE64, 'base64'));
    wasm = new WebAssembly.Instance(module).exports;
    views();
  }
  return wasm;
}

function views(): void {
  words = new BigUint64Array(wasm!.memory.buffer);
}

const M64 = (1n << 64n) - 1n;

/** Writes a value below 2^256 as four little-endian 64-bit words at byte offset `at`. */
function put(at: number, x: bigint): void {
  const i = at >> 3;
  words[i] = x & M64;
  words[i + 1] = (x >> 64n) & M64;
  words[i + 2] = (x >> 128n) & M64;
  words[i + 3] = x >> 192n;
}

function get(at: number): bigint {
  const i = at >> 3;
  return (words[i + 3]! << 192n) | (words[i + 2]! << 128n) | (words[i + 1]! << 64n) | words[i]!;
}

const felt = (x: bigint): bigint => (x < 0n || x >= P ? ((x % P) + P) % P : x);

/**
 * The Hades permutation of Starknet's Poseidon (width 3, 8 full and 83 partial rounds) of `(s0, s1, s2)`, taken mod
 * P; returns the permuted state (each below P).
 *
 * @example
 * const [h] = hadesPermutationWasm(1n, 2n, 2n); // poseidon_hash(1, 2)
 */
export function hadesPermutationWasm(s0: bigint, s1: bigint, s2: bigint): [bigint, bigint, bigint] {
  const w = exportsOf();
  put(STATE, felt(s0));
  put(STATE + 32, felt(s1));
  put(STATE + 64, felt(s2));
  w.permute();
  return [get(STATE), get(STATE + 32), get(STATE + 64)];
}

/** A table of affine points (rows of 255 byte multiples) in the module's memory: its byte offset. */
export type WasmTable = number;

/** Copies rows of affine points into the module's memory (Montgomery form there); the table's offset. */
export function wasmTable(rows: readonly (readonly (readonly [bigint, bigint])[])[]): WasmTable {
  const w = exportsOf();
  const start = tableEnd;
  const end = start + rows.length * 255 * POINT_BYTES;
  const have = w.memory.buffer.byteLength;
  if (end > have) {
    w.memory.grow(Math.ceil((end - have) / 65536));
    views();
  }
  let at = start;
  for (const row of rows) {
    if (row.length !== 255) throw new Error('a table row holds 255 points');
    for (const [x, y] of row) {
      put(at, x);
      put(at + 32, y);
      at += POINT_BYTES;
    }
  }
  w.to_mont(start, (end - start) / 32);
  tableEnd = end;
  return start;
}

/** The accumulator as Jacobian coordinates (canonical), or null at infinity. */
function accumulator(): [bigint, bigint, bigint] | null {
  const z = get(ACC + 64);
  return z === 0n ? null : [get(ACC), get(ACC + 32), z];
}

/** `Σ byte_w(k)·256^w·p` from p's table (k below 2^(8·windows)), in Jacobian coordinates, or null at infinity. */
export function wasmMulTable(table: WasmTable, windows: number, k: bigint): [bigint, bigint, bigint] | null {
  const w = exportsOf();
  put(K1, k);
  w.mul_table(table, windows);
  return accumulator();
}

/** `k·p` (0 ≤ k < 2^256) for an affine p by double-and-add, in Jacobian coordinates, or null at infinity. */
export function wasmMulPoint(p: readonly [bigint, bigint], k: bigint): [bigint, bigint, bigint] | null {
  const w = exportsOf();
  put(K1, k);
  put(BASE, p[0]);
  put(BASE + 32, p[1]);
  w.to_mont(BASE, 2);
  w.mul_point(k.toString(2).length);
  return accumulator();
}

/**
 * `shift + low(a)·P1 + high(a)·P2 + low(b)·P3 + high(b)·P4` from the four Pedersen tables (31, 1, 31 and 1 windows),
 * in Jacobian coordinates.
 */
export function wasmPedersen(tables: readonly [WasmTable, WasmTable, WasmTable, WasmTable], a: bigint, b: bigint) {
  const w = exportsOf();
  put(K1, a);
  put(K2, b);
  w.pedersen(tables[0], tables[1], tables[2], tables[3]);
  return accumulator();
}
