#!/usr/bin/env node
// Generates the WebAssembly arithmetic over the Stark field that `src/vm/libfuncs/starkWasm.ts` runs: the Hades
// permutation (Starknet's Poseidon: width 3, 8 full and 83 partial rounds, cube S-box, MDS
// [[3, 1, 1], [1, -1, 1], [1, 1, -2]]) and the Stark curve's point arithmetic (y² = x³ + x + β, Jacobian coordinates:
// doubling, mixed addition, products by byte-window tables and by double-and-add, the Pedersen hash over its tables):
// - `src/vm/libfuncs/stark.wat`, the text, to read;
// - `src/vm/libfuncs/starkWasm.generated.ts`, the assembled module as base64 (with the wabt devDependency).
//
// Field elements are 8 little-endian 32-bit limbs in Montgomery form (R = 2^256). The Starknet prime
// P = 2^251 + 17·2^192 + 1 has three non-zero limbs (1, 17 at limb 6, 2^27 at limb 7) and P ≡ 1 mod 2^32, so
// -P^-1 mod 2^32 = 2^32 - 1 and each reduction step of a Montgomery product costs two small products and a shift
// instead of eight products. Each limb is held in an i64 so that a 32×32-bit product plus two 32-bit carries fits.
//
// Memory: the Hades state at 0, 32 and 64 (canonical form in and out), scratch at 96 and 128, R² mod P at 160,
// canonical 1 at 192, R mod P (1 in Montgomery form) at 224, the 273 round constants (Montgomery form) from 256; curve
// scratch from 9216, the point accumulator at 10240 (X, Y, Z), two scalars at 10400 and 10432 (32 little-endian bytes,
// canonical), an affine base point at 10496 and the Pedersen shift point at 10560 (Montgomery form). Point tables
// (affine points of 64 bytes, Montgomery form) go from 65536 on, where the loader puts them (it grows the memory).
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
const MONT_ONE = 224;
const CONSTANTS = 256;
const E = (i) => 9216 + 32 * i; // curve scratch
const ACC = 10240;
const K1 = 10400;
const K2 = 10432;
const BASE = 10496;
const SHIFT = 10560;
/** The module's own memory is one page; the loader puts point tables after it. */
const TABLES = 65536;
/** The Pedersen hash's shift point (the first of the five Pedersen points). */
const PEDERSEN_SHIFT = [
  2089986280348253421170679821480865132823066470938446095505822317253594081284n,
  1713931329540660377023406109199410414810705867260802078187082345529207694986n,
];
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

// ---- the Stark curve (a = 1), points in Jacobian coordinates (X, Y, Z at p, p+32, p+64), Z = 0 at infinity ----
const c = (n) => `(i32.const ${n})`;
const at = (ptr, off) => (off === 0 ? `(local.get ${ptr})` : `(i32.add (local.get ${ptr}) (i32.const ${off}))`);
const op = (f, d, x, y) => emit(`(call $${f} ${d} ${x}${y === undefined ? '' : ` ${y}`})`);

emit('(func $is_zero (param $x i32) (result i32)');
emit(
  `(i64.eqz (i64.or (i64.or (i64.load (local.get $x)) (i64.load offset=8 (local.get $x))) (i64.or (i64.load offset=16 (local.get $x)) (i64.load offset=24 (local.get $x)))))`,
);
emit(')');
emit('(func $copy (param $d i32) (param $x i32)');
for (let j = 0; j < 4; j++)
  emit(`(i64.store offset=${8 * j} (local.get $d) (i64.load offset=${8 * j} (local.get $x)))`);
emit(')');
emit('(func $zero (param $d i32)');
for (let j = 0; j < 4; j++) emit(`(i64.store offset=${8 * j} (local.get $d) (i64.const 0))`);
emit(')');

// 2·p in place: YY = Y², S = 4·X·YY, M = 3X² + Z⁴, X' = M² − 2S, Y' = M(S − X') − 8YY², Z' = 2YZ
emit('(func $jdouble (param $p i32)');
emit(
  `(if (i32.or (call $is_zero ${at('$p', 64)}) (call $is_zero ${at('$p', 32)})) (then (call $zero ${at('$p', 64)}) (return)))`,
);
const X = at('$p', 0);
const Y = at('$p', 32);
const Z = at('$p', 64);
op('mul', c(E(0)), Y, Y); // YY
op('mul', c(E(1)), Z, Z); // ZZ
op('mul', c(E(2)), X, c(E(0)));
op('add', c(E(2)), c(E(2)), c(E(2)));
op('add', c(E(2)), c(E(2)), c(E(2))); // S
op('mul', c(E(3)), X, X);
op('add', c(E(4)), c(E(3)), c(E(3)));
op('add', c(E(3)), c(E(4)), c(E(3))); // 3X²
op('mul', c(E(4)), c(E(1)), c(E(1)));
op('add', c(E(3)), c(E(3)), c(E(4))); // M
op('mul', c(E(5)), Y, Z);
op('add', Z, c(E(5)), c(E(5))); // Z' (Y still the old one)
op('mul', c(E(5)), c(E(3)), c(E(3)));
op('add', c(E(6)), c(E(2)), c(E(2)));
op('sub', X, c(E(5)), c(E(6))); // X'
op('sub', c(E(7)), c(E(2)), X);
op('mul', c(E(7)), c(E(3)), c(E(7))); // M(S − X')
op('mul', c(E(8)), c(E(0)), c(E(0)));
op('add', c(E(8)), c(E(8)), c(E(8)));
op('add', c(E(8)), c(E(8)), c(E(8)));
op('add', c(E(8)), c(E(8)), c(E(8))); // 8YY²
op('sub', Y, c(E(7)), c(E(8))); // Y'
emit(')');

// p += q for an affine q (x at q, y at q+32): U2 = qx·Z², S2 = qy·Z³, H = U2 − X, R = S2 − Y,
// X' = R² − H³ − 2X·H², Y' = R(X·H² − X') − Y·H³, Z' = Z·H
emit('(func $jadd_aff (param $p i32) (param $q i32)');
const QX = at('$q', 0);
const QY = at('$q', 32);
emit(
  `(if (call $is_zero ${Z}) (then (call $copy ${X} ${QX}) (call $copy ${Y} ${QY}) (call $copy ${Z} ${c(MONT_ONE)}) (return)))`,
);
op('mul', c(E(10)), Z, Z); // ZZ
op('mul', c(E(11)), QX, c(E(10)));
op('sub', c(E(11)), c(E(11)), X); // H
op('mul', c(E(12)), QY, c(E(10)));
op('mul', c(E(12)), c(E(12)), Z);
op('sub', c(E(12)), c(E(12)), Y); // R
emit(`(if (call $is_zero ${c(E(11))}) (then`);
emit(
  `(if (call $is_zero ${c(E(12))}) (then (call $copy ${X} ${QX}) (call $copy ${Y} ${QY}) (call $copy ${Z} ${c(MONT_ONE)}) (call $jdouble (local.get $p))) (else (call $zero ${Z})))`,
);
emit('(return)))');
op('mul', c(E(13)), c(E(11)), c(E(11))); // HH
op('mul', c(E(14)), c(E(13)), c(E(11))); // HHH
op('mul', c(E(13)), X, c(E(13))); // V = X·HH
op('mul', X, c(E(12)), c(E(12)));
op('sub', X, X, c(E(14)));
op('sub', X, X, c(E(13)));
op('sub', X, X, c(E(13))); // X'
op('sub', c(E(13)), c(E(13)), X);
op('mul', c(E(13)), c(E(12)), c(E(13))); // R(V − X')
op('mul', c(E(14)), Y, c(E(14)));
op('sub', Y, c(E(13)), c(E(14))); // Y'
op('mul', Z, Z, c(E(11))); // Z'
emit(')');

/** The accumulator out of Montgomery form (the loader reads X, Y, Z and divides). */
const accOut = () => {
  for (const o of [0, 32, 64]) emit(`(call $mul ${c(ACC + o)} ${c(ACC + o)} ${c(ONE)})`);
};

// ACC = Σ byte_w(k)·256^w·p over `windows` bytes of the scalar at $k, from a table of 255 points a window at $t
emit('(func $add_windows (param $t i32) (param $k i32) (param $windows i32) (local $w i32) (local $d i32)');
emit('(block $done (loop $next');
emit('(br_if $done (i32.ge_u (local.get $w) (local.get $windows)))');
emit('(local.set $d (i32.load8_u (i32.add (local.get $k) (local.get $w))))');
emit(
  `(if (local.get $d) (then (call $jadd_aff ${c(ACC)} (i32.add (local.get $t) (i32.shl (i32.add (i32.mul (local.get $w) (i32.const 255)) (i32.sub (local.get $d) (i32.const 1))) (i32.const 6))))))`,
);
emit('(local.set $w (i32.add (local.get $w) (i32.const 1)))');
emit('(br $next)))');
emit(')');

// k·p from p's byte-window table at $t (windows of the scalar at K1); the result in ACC, canonical
emit('(func (export "mul_table") (param $t i32) (param $windows i32)');
emit(`(call $zero ${c(ACC + 64)})`);
emit(`(call $add_windows (local.get $t) ${c(K1)} (local.get $windows))`);
accOut();
emit(')');

// k·p for the affine base at BASE by double-and-add over the scalar's $bits low bits (at K1); result in ACC
emit('(func (export "mul_point") (param $bits i32) (local $i i32)');
emit(`(call $zero ${c(ACC + 64)})`);
emit('(local.set $i (local.get $bits))');
emit('(block $done (loop $next');
emit('(br_if $done (i32.eqz (local.get $i)))');
emit('(local.set $i (i32.sub (local.get $i) (i32.const 1)))');
emit(`(call $jdouble ${c(ACC)})`);
emit(
  `(if (i32.and (i32.shr_u (i32.load8_u (i32.add ${c(K1)} (i32.shr_u (local.get $i) (i32.const 3)))) (i32.and (local.get $i) (i32.const 7))) (i32.const 1)) (then (call $jadd_aff ${c(ACC)} ${c(BASE)})))`,
);
emit('(br $next)))');
accOut();
emit(')');

// Pedersen: ACC = shift + low248(a)·P1 + high(a)·P2 + low248(b)·P3 + high(b)·P4, a at K1, b at K2, the four tables
// at $t1..$t4 (31, 1, 31 and 1 windows); canonical ACC for the loader
emit('(func (export "pedersen") (param $t1 i32) (param $t2 i32) (param $t3 i32) (param $t4 i32)');
emit(
  `(call $copy ${c(ACC)} ${c(SHIFT)}) (call $copy ${c(ACC + 32)} ${c(SHIFT + 32)}) (call $copy ${c(ACC + 64)} ${c(MONT_ONE)})`,
);
emit(`(call $add_windows (local.get $t1) ${c(K1)} (i32.const 31))`);
emit(`(call $add_windows (local.get $t2) ${c(K1 + 31)} (i32.const 1))`);
emit(`(call $add_windows (local.get $t3) ${c(K2)} (i32.const 31))`);
emit(`(call $add_windows (local.get $t4) ${c(K2 + 31)} (i32.const 1))`);
accOut();
emit(')');

// Converts n field elements from $ptr on into Montgomery form, in place
emit('(func (export "to_mont") (param $ptr i32) (param $n i32)');
emit('(block $done (loop $next');
emit('(br_if $done (i32.eqz (local.get $n)))');
emit(`(call $mul (local.get $ptr) (local.get $ptr) ${c(R2)})`);
emit('(local.set $ptr (i32.add (local.get $ptr) (i32.const 32)))');
emit('(local.set $n (i32.sub (local.get $n) (i32.const 1)))');
emit('(br $next)))');
emit(')');

const bytesOf = (x) =>
  limbs(x)
    .flatMap((l) => [l & 255, (l >>> 8) & 255, (l >>> 16) & 255, (l >>> 24) & 255])
    .map((b) => `\\${b.toString(16).padStart(2, '0')}`)
    .join('');
const data = [
  `(data (i32.const ${R2}) "${bytesOf((R * R) % P)}")`,
  `(data (i32.const ${ONE}) "${bytesOf(1n)}")`,
  `(data (i32.const ${MONT_ONE}) "${bytesOf(R % P)}")`,
  `(data (i32.const ${SHIFT}) "${bytesOf((PEDERSEN_SHIFT[0] * R) % P)}${bytesOf((PEDERSEN_SHIFT[1] * R) % P)}")`,
  `(data (i32.const ${CONSTANTS}) "${rc.map((k) => bytesOf((k * R) % P)).join('')}")`,
];
const wat = [
  ';; Generated by scripts/generateStarkWasm.mjs: the Hades permutation and Stark curve arithmetic over the Stark field.',
  '(module',
  `(memory (export "memory") ${TABLES / 65536})`,
  ...lines,
  ...data,
  ')',
  '',
].join('\n');

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'vm', 'libfuncs');
writeFileSync(join(dir, 'stark.wat'), wat);
const wabt = await wabtInit();
const mod = wabt.parseWat('stark.wat', wat);
mod.validate();
const { buffer } = mod.toBinary({});
const base64 = Buffer.from(buffer).toString('base64');
writeFileSync(
  join(dir, 'starkWasm.generated.ts'),
  [
    '// Generated by scripts/generateStarkWasm.mjs from stark.wat (do not edit): the Stark field module.',
    "/** Byte offsets in the module's memory that the loader uses (see the generator for the whole layout). */",
    'export const STARK_WASM_LAYOUT = {',
    ...Object.entries({ hadesState: A, acc: ACC, k1: K1, k2: K2, base: BASE, tables: TABLES }).map(
      ([k, v]) => `  ${k}: ${v},`,
    ),
    '} as const;',
    `export const STARK_WASM_BASE64 =\n  '${base64}';`,
    '',
  ].join('\n'),
);
console.log(`stark.wat: ${lines.length} lines; module ${buffer.length} bytes`);
