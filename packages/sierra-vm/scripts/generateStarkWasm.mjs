#!/usr/bin/env node
// Generates the WebAssembly Hades permutation (Starknet's Poseidon: width 3, 8 full and 83 partial rounds, cube
// S-box, MDS [[3, 1, 1], [1, -1, 1], [1, 1, -2]]) that `src/vm/libfuncs/hadesWasm.ts` runs:
// - `src/vm/libfuncs/hades.wat`, the text, to read;
// - `src/vm/libfuncs/hadesWasm.generated.ts`, the assembled module as base64 (with the wabt devDependency).
//
// Field elements are 8 little-endian 32-bit limbs in Montgomery form (R = 2^256). The Starknet prime
// P = 2^251 + 17·2^192 + 1 has three non-zero limbs (1, 17 at limb 6, 2^27 at limb 7) and P ≡ 1 mod 2^32, so
// -P^-1 mod 2^32 = 2^32 - 1 and each reduction step of a Montgomery product costs two small products and a shift
// instead of eight products. Each limb is held in an i64 so that a 32×32-bit product plus two 32-bit carries fits.
//
// Memory (one page): the state at 0, 32 and 64 (canonical form in and out), scratch at 96 and 128, R² mod P at 160,
// canonical 1 at 192, the 273 round constants (Montgomery form) from 256.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const P = 2n ** 251n + 17n * 2n ** 192n + 1n;
const R = 2n ** 256n;
const FULL_HALF = 4;
const PARTIAL = 83;
const ROUNDS = 2 * FULL_HALF + PARTIAL;
const limbs = (x) => Array.from({ length: 8 }, (_, i) => Number((x >> BigInt(32 * i)) & 0xffffffffn));
const PL = limbs(P);
if (PL.join() !== [1, 0, 0, 0, 0, 0, 17, 2 ** 27].join()) throw new Error('unexpected prime limbs');

const A = 0;
const B = 32;
const C = 64;
const T = 96;
const U = 128;
const R2 = 160;
const ONE = 192;
const CONSTANTS = 256;
const rc = Array.from(
  { length: ROUNDS * 3 },
  (_, i) => BigInt(`0x${createHash('sha256').update(`Hades${i}`).digest('hex')}`) % P,
);

const M = '(i64.const 0xffffffff)';
const load = (ptr, j) => `(i64.load32_u offset=${4 * j} (local.get ${ptr}))`;
const store = (ptr, j, v) => `(i64.store32 offset=${4 * j} (local.get ${ptr}) ${v})`;
const lines = [];
const emit = (s) => lines.push(s);

/** Final step shared by mul and add: t0..t7 (+ t8 when `hi`) is below 2P; store it minus P when it is ≥ P. */
function reduceAndStore(hi) {
  emit('(local.set $bw (i64.const 0))');
  for (let j = 0; j < 8; j++) {
    emit(`(local.set $s (i64.sub (i64.sub (local.get $t${j}) (i64.const ${PL[j]})) (local.get $bw)))`);
    emit(`(local.set $r${j} (i64.and (local.get $s) ${M}))`);
    emit('(local.set $bw (i64.shr_u (local.get $s) (i64.const 63)))');
  }
  // keep t when the subtraction borrowed (t < P) and no limb 8 carries it above
  const keep = hi
    ? '(i32.and (i64.eqz (local.get $t8)) (i32.wrap_i64 (local.get $bw)))'
    : '(i32.wrap_i64 (local.get $bw))';
  emit(`(local.set $keep ${keep})`);
  for (let j = 0; j < 8; j++) emit(store('$d', j, `(select (local.get $t${j}) (local.get $r${j}) (local.get $keep))`));
}

const limbLocals = (name, n) => Array.from({ length: n }, (_, j) => `(local $${name}${j} i64)`).join(' ');

// d = x·y·R^-1 mod P (CIOS)
emit('(func $mul (param $d i32) (param $x i32) (param $y i32)');
emit(`${limbLocals('t', 10)} ${limbLocals('x', 8)} ${limbLocals('r', 8)}`);
emit('(local $yi i64) (local $c i64) (local $s i64) (local $m i64) (local $bw i64) (local $keep i32)');
for (let j = 0; j < 8; j++) emit(`(local.set $x${j} ${load('$x', j)})`);
for (let i = 0; i < 8; i++) {
  emit(`(local.set $yi ${load('$y', i)})`);
  emit('(local.set $c (i64.const 0))');
  for (let j = 0; j < 8; j++) {
    emit(
      `(local.set $s (i64.add (i64.add (local.get $t${j}) (i64.mul (local.get $x${j}) (local.get $yi))) (local.get $c)))`,
    );
    emit(`(local.set $t${j} (i64.and (local.get $s) ${M}))`);
    emit('(local.set $c (i64.shr_u (local.get $s) (i64.const 32)))');
  }
  emit('(local.set $s (i64.add (local.get $t8) (local.get $c)))');
  emit(`(local.set $t8 (i64.and (local.get $s) ${M}))`);
  emit('(local.set $t9 (i64.shr_u (local.get $s) (i64.const 32)))');
  // m = t0·(−P⁻¹) mod 2^32 = −t0 mod 2^32
  emit(`(local.set $m (i64.and (i64.sub (i64.const 0) (local.get $t0)) ${M}))`);
  // t0 + m·1 is 0 mod 2^32: only its carry goes on
  emit('(local.set $c (i64.shr_u (i64.add (local.get $t0) (local.get $m)) (i64.const 32)))');
  for (let j = 1; j < 8; j++) {
    let term = `(local.get $t${j})`;
    if (j === 6) term = `(i64.add ${term} (i64.mul (local.get $m) (i64.const 17)))`;
    if (j === 7) term = `(i64.add ${term} (i64.shl (local.get $m) (i64.const 27)))`;
    emit(`(local.set $s (i64.add ${term} (local.get $c)))`);
    emit(`(local.set $t${j - 1} (i64.and (local.get $s) ${M}))`);
    emit('(local.set $c (i64.shr_u (local.get $s) (i64.const 32)))');
  }
  emit('(local.set $s (i64.add (local.get $t8) (local.get $c)))');
  emit(`(local.set $t7 (i64.and (local.get $s) ${M}))`);
  emit('(local.set $t8 (i64.add (local.get $t9) (i64.shr_u (local.get $s) (i64.const 32))))');
  emit('(local.set $t9 (i64.const 0))');
}
reduceAndStore(true);
emit(')');

// d = x + y mod P
emit('(func $add (param $d i32) (param $x i32) (param $y i32)');
emit(`${limbLocals('t', 8)} ${limbLocals('r', 8)} (local $c i64) (local $s i64) (local $bw i64) (local $keep i32)`);
emit('(local.set $c (i64.const 0))');
for (let j = 0; j < 8; j++) {
  emit(`(local.set $s (i64.add (i64.add ${load('$x', j)} ${load('$y', j)}) (local.get $c)))`);
  emit(`(local.set $t${j} (i64.and (local.get $s) ${M}))`);
  emit('(local.set $c (i64.shr_u (local.get $s) (i64.const 32)))');
}
reduceAndStore(false);
emit(')');

// d = x − y mod P
emit('(func $sub (param $d i32) (param $x i32) (param $y i32)');
emit(`${limbLocals('t', 8)} (local $c i64) (local $s i64) (local $bw i64)`);
emit('(local.set $bw (i64.const 0))');
for (let j = 0; j < 8; j++) {
  emit(`(local.set $s (i64.sub (i64.sub ${load('$x', j)} ${load('$y', j)}) (local.get $bw)))`);
  emit(`(local.set $t${j} (i64.and (local.get $s) ${M}))`);
  emit('(local.set $bw (i64.shr_u (local.get $s) (i64.const 63)))');
}
// x < y: add P back (the borrow, 0 or 1, times P's limbs)
emit('(local.set $c (i64.const 0))');
for (let j = 0; j < 8; j++) {
  emit(
    `(local.set $s (i64.add (i64.add (local.get $t${j}) (i64.mul (local.get $bw) (i64.const ${PL[j]}))) (local.get $c)))`,
  );
  emit(store('$d', j, `(i64.and (local.get $s) ${M})`));
  emit('(local.set $c (i64.shr_u (local.get $s) (i64.const 32)))');
}
emit(')');

// d = x³
emit('(func $cube (param $d i32) (param $x i32)');
emit(`(call $mul (i32.const ${T}) (local.get $x) (local.get $x))`);
emit(`(call $mul (local.get $d) (i32.const ${T}) (local.get $x))`);
emit(')');

// The permutation of the state at A, B, C (canonical form in and out).
emit('(func (export "permute") (local $r i32) (local $k i32)');
for (const p of [A, B, C]) emit(`(call $mul (i32.const ${p}) (i32.const ${p}) (i32.const ${R2}))`);
emit(`(local.set $k (i32.const ${CONSTANTS}))`);
emit('(loop $round');
emit(`(call $add (i32.const ${A}) (i32.const ${A}) (local.get $k))`);
emit(`(call $add (i32.const ${B}) (i32.const ${B}) (i32.add (local.get $k) (i32.const 32)))`);
emit(`(call $add (i32.const ${C}) (i32.const ${C}) (i32.add (local.get $k) (i32.const 64)))`);
emit(
  `(if (i32.or (i32.lt_u (local.get $r) (i32.const ${FULL_HALF})) (i32.ge_u (local.get $r) (i32.const ${FULL_HALF + PARTIAL})))`,
);
emit(`(then (call $cube (i32.const ${A}) (i32.const ${A})) (call $cube (i32.const ${B}) (i32.const ${B}))))`);
emit(`(call $cube (i32.const ${C}) (i32.const ${C}))`);
// t = a + b + c; a' = t + 2a; b' = t − 2b; c' = t − 3c
emit(`(call $add (i32.const ${T}) (i32.const ${A}) (i32.const ${B}))`);
emit(`(call $add (i32.const ${T}) (i32.const ${T}) (i32.const ${C}))`);
emit(`(call $add (i32.const ${U}) (i32.const ${A}) (i32.const ${A}))`);
emit(`(call $add (i32.const ${A}) (i32.const ${T}) (i32.const ${U}))`);
emit(`(call $add (i32.const ${U}) (i32.const ${B}) (i32.const ${B}))`);
emit(`(call $sub (i32.const ${B}) (i32.const ${T}) (i32.const ${U}))`);
emit(`(call $add (i32.const ${U}) (i32.const ${C}) (i32.const ${C}))`);
emit(`(call $add (i32.const ${U}) (i32.const ${U}) (i32.const ${C}))`);
emit(`(call $sub (i32.const ${C}) (i32.const ${T}) (i32.const ${U}))`);
emit('(local.set $k (i32.add (local.get $k) (i32.const 96)))');
emit('(local.set $r (i32.add (local.get $r) (i32.const 1)))');
emit(`(br_if $round (i32.lt_u (local.get $r) (i32.const ${ROUNDS})))`);
emit(')');
for (const p of [A, B, C]) emit(`(call $mul (i32.const ${p}) (i32.const ${p}) (i32.const ${ONE}))`);
emit(')');

const bytesOf = (x) =>
  limbs(x)
    .flatMap((l) => [l & 255, (l >>> 8) & 255, (l >>> 16) & 255, (l >>> 24) & 255])
    .map((b) => `\\${b.toString(16).padStart(2, '0')}`)
    .join('');
const data = [
  `(data (i32.const ${R2}) "${bytesOf((R * R) % P)}")`,
  `(data (i32.const ${ONE}) "${bytesOf(1n)}")`,
  `(data (i32.const ${CONSTANTS}) "${rc.map((k) => bytesOf((k * R) % P)).join('')}")`,
];
const wat = [
  ';; Generated by scripts/generateHadesWasm.mjs: the Hades permutation of Starknet Poseidon over the Stark field.',
  '(module',
  '(memory (export "memory") 1)',
  ...lines,
  ...data,
  ')',
  '',
].join('\n');

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'vm', 'libfuncs');
writeFileSync(join(dir, 'hades.wat'), wat);
const wabt = await wabtInit();
const mod = wabt.parseWat('hades.wat', wat);
mod.validate();
const { buffer } = mod.toBinary({});
const base64 = Buffer.from(buffer).toString('base64');
writeFileSync(
  join(dir, 'hadesWasm.generated.ts'),
  [
    '// Generated by scripts/generateHadesWasm.mjs from hades.wat (do not edit): the WebAssembly Hades permutation.',
    `export const HADES_WASM_BASE64 =\n  '${base64}';`,
    '',
  ].join('\n'),
);
console.log(`hades.wat: ${lines.length} lines; module ${buffer.length} bytes`);
