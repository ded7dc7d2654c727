// The Stark curve y² = x³ + x + β over the felt252 field, in affine coordinates, and the Pedersen hash
// (internal helpers of the EC and Pedersen handlers).
import { FIELD_PRIME as P } from '../../constants.js';
import { modP } from './common.js';
import { type WasmTable, wasmMulPoint, wasmMulTable, wasmPedersen, wasmTable } from './starkWasm.js';

/** A curve point; `null` is the point at infinity. */
export type CurvePoint = readonly [bigint, bigint] | null;

export const BETA = 0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89n;

export const inv = (a: bigint): bigint => {
  let [r0, r1, s0, s1] = [P, modP(a), 0n, 1n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return modP(s0);
};

export const onCurve = (x: bigint, y: bigint): boolean => modP(y * y - (x * x * x + x + BETA)) === 0n;

export function add(p: CurvePoint, q: CurvePoint): CurvePoint {
  if (p === null) return q;
  if (q === null) return p;
  const [x1, y1] = p;
  const [x2, y2] = q;
  let m: bigint;
  if (x1 === x2) {
    if (modP(y1 + y2) === 0n) return null;
    m = modP((3n * x1 * x1 + 1n) * inv(2n * y1));
  } else m = modP((y2 - y1) * inv(x2 - x1));
  const x3 = modP(m * m - x1 - x2);
  return [x3, modP(m * (x1 - x3) - y1)];
}

/** `a mod P` in [0, P). */
const m = (a: bigint): bigint => {
  const r = a % P;
  return r < 0n ? r + P : r;
};

/** A point in Jacobian coordinates (x = X/Z², y = Y/Z³); Z = 0 is the point at infinity. */
type Jacobian = [X: bigint, Y: bigint, Z: bigint];

/** 2·p (a = 1): M = 3X² + Z⁴, S = 4XY², X' = M² − 2S, Y' = M(S − X') − 8Y⁴, Z' = 2YZ. */
function jDouble(p: Jacobian): Jacobian {
  const [X, Y, Z] = p;
  if (Z === 0n || Y === 0n) return [0n, 1n, 0n];
  const YY = m(Y * Y);
  const ZZ = m(Z * Z);
  const S = m(4n * X * YY);
  const M = m(3n * X * X + ZZ * ZZ);
  const X3 = m(M * M - 2n * S);
  return [X3, m(M * (S - X3) - 8n * YY * YY), m(2n * Y * Z)];
}

/** p + q for an affine q (mixed addition): U2 = qx·Z², S2 = qy·Z³, H = U2 − X, R = S2 − Y. */
function jAddAffine(p: Jacobian, q: readonly [bigint, bigint]): Jacobian {
  const [X, Y, Z] = p;
  if (Z === 0n) return [q[0], q[1], 1n];
  const ZZ = m(Z * Z);
  const H = m(q[0] * ZZ - X);
  const R = m(q[1] * ZZ * Z - Y);
  if (H === 0n) return R === 0n ? jDouble([q[0], q[1], 1n]) : [0n, 1n, 0n];
  const HH = m(H * H);
  const HHH = m(HH * H);
  const V = m(X * HH);
  const X3 = m(R * R - HHH - 2n * V);
  return [X3, m(R * (V - X3) - Y * HHH), m(Z * H)];
}

/** Back to affine coordinates: one field inversion. */
function toAffine(p: Jacobian): CurvePoint {
  const [X, Y, Z] = p;
  if (Z === 0n) return null;
  const zi = inv(Z);
  const zi2 = m(zi * zi);
  return [m(X * zi2), m(Y * zi2 * zi)];
}

/** A Jacobian result of the WebAssembly module as an affine point. */
function fromWasm(j: [bigint, bigint, bigint] | null): CurvePoint {
  return j === null ? null : toAffine(j);
}

/** Windows of 4 bits: a table holds d·16^i·p for d in 1..15 and i in 0..62 (scalars below 2^252). */
const WINDOWS = 63;

/** Multiples of one base point, for products without doublings (see {@link mul}). */
function fixedBaseTable(p: readonly [bigint, bigint]): (readonly [bigint, bigint])[][] {
  const rows: (readonly [bigint, bigint])[][] = [];
  let base: readonly [bigint, bigint] = p;
  for (let i = 0; i < WINDOWS; i++) {
    const row: (readonly [bigint, bigint])[] = [base];
    let acc: Jacobian = [base[0], base[1], 1n];
    for (let d = 2; d <= 15; d++) {
      acc = jAddAffine(acc, base);
      row.push(toAffine(acc) as readonly [bigint, bigint]);
    }
    rows.push(row);
    // 16·base = 2·(8·base)
    base = toAffine(jDouble([row[7]![0], row[7]![1], 1n])) as readonly [bigint, bigint];
  }
  return rows;
}

/** Base points seen lately (x,y → uses), and the tables of those used more than once (at most 32). */
const baseUses = new Map<string, number>();
const baseTables = new Map<string, (readonly [bigint, bigint])[][]>();
/** Uses after which a base point's 4-bit table gives way to a byte-window one (about 8,000 points, ~1 MB). */
const BYTE_TABLE_USES = 64;
/**
 * Byte-window tables of the bases used most (the curve generator, the keys of busy accounts), in the WebAssembly
 * module's memory: at most 8 (about 0.5 MB each; a table evicted stays in memory and a new one is added).
 */
const byteTables = new Map<string, WasmTable>();
/** Tables the module holds at most, over the process's life (past it, bases keep their 4-bit tables). */
const MAX_BYTE_TABLES = 64;
let byteTablesMade = 0;

/**
 * `k·p` for k ≥ 0. A base point multiplied before (a signature check multiplies the curve generator and the same
 * public key every time) gets a table of its multiples, and then a product is 63 additions without doublings (32 once
 * the point has been used 64 times and has a table of its byte multiples); other products go by double-and-add. All
 * work in Jacobian coordinates with one field inversion at the end.
 */
export function mul(k: bigint, p: CurvePoint): CurvePoint {
  if (p === null || k === 0n) return null;
  if (k < 1n << BigInt(4 * WINDOWS)) {
    const key = `${p[0]},${p[1]}`;
    const bytes = byteTables.get(key);
    if (bytes !== undefined) return fromWasm(wasmMulTable(bytes, 32, k));
    let table = baseTables.get(key);
    const uses = (baseUses.get(key) ?? 0) + 1;
    if (baseUses.size >= 4096) baseUses.clear();
    baseUses.set(key, uses);
    if (uses >= BYTE_TABLE_USES && byteTablesMade < MAX_BYTE_TABLES) {
      const table = wasmTable(byteWindowTable(p, 32));
      byteTablesMade++;
      if (byteTables.size >= 8) byteTables.delete(byteTables.keys().next().value!);
      byteTables.set(key, table);
      baseTables.delete(key);
      return fromWasm(wasmMulTable(table, 32, k));
    }
    if (table === undefined && uses >= 2) {
      table = fixedBaseTable(p);
      if (baseTables.size >= 32) baseTables.delete(baseTables.keys().next().value!);
      baseTables.set(key, table);
    }
    if (table !== undefined) {
      let r: Jacobian = [0n, 1n, 0n];
      for (let i = 0, v = k; v > 0n; i++, v >>= 4n) {
        const d = Number(v & 15n);
        if (d !== 0) r = jAddAffine(r, table[i]![d - 1]!);
      }
      return toAffine(r);
    }
  }
  if (k < 1n << 256n) return fromWasm(wasmMulPoint(p, k));
  let r: Jacobian = [0n, 1n, 0n];
  for (let i = k.toString(2).length - 1; i >= 0; i--) {
    r = jDouble(r);
    if ((k >> BigInt(i)) & 1n) r = jAddAffine(r, p);
  }
  return toAffine(r);
}

const modPow = (b: bigint, e: bigint): bigint => {
  let r = 1n;
  b = modP(b);
  while (e > 0n) {
    if (e & 1n) r = (r * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return r;
};

/** P − 1 = 2^S · Q with Q odd (S = 192 for the Starknet prime). */
const S = 192;
const Q = (P - 1n) >> BigInt(S);
/** Bits per digit of the discrete logarithm in the 2^S subgroup. */
const W = 8;

interface SqrtTables {
  /** 1/g, where g = z^Q (z a non-residue) generates the 2^S subgroup. */
  gInv: bigint;
  /** gInvPow[k][d] = g^(−d·2^(W·k)). */
  gInvPow: bigint[][];
  /** h^d → d for h = g^(2^(S−W)), of order 2^W. */
  digit: Map<bigint, number>;
}
let sqrtTables: SqrtTables | undefined;

function buildSqrtTables(): SqrtTables {
  let z = 2n;
  while (modPow(z, (P - 1n) / 2n) !== P - 1n) z++;
  const g = modPow(z, Q);
  const gInv = inv(g);
  const gInvPow: bigint[][] = [];
  let base = gInv; // g^(−2^(W·k))
  for (let k = 0; k < S / W; k++) {
    const row = [1n];
    for (let d = 1; d < 1 << W; d++) row.push(m(row[d - 1]! * base));
    gInvPow.push(row);
    for (let i = 0; i < W; i++) base = m(base * base);
  }
  let h = g;
  for (let i = 0; i < S - W; i++) h = m(h * h);
  const digit = new Map<bigint, number>();
  for (let d = 0, x = 1n; d < 1 << W; d++, x = m(x * h)) digit.set(x, d);
  return { gInv, gInvPow, digit };
}

/** Recent square roots by input: a signature check takes the root of the same public key every time. */
const sqrtCache = new Map<bigint, bigint | undefined>();

/**
 * A square root mod P, or undefined if `a` is not a square; returns the smaller root. Tonelli–Shanks with the discrete
 * logarithm in the 2^192 subgroup read W bits at a time from tables (about 2,500 field products instead of ~10,000).
 */
export function sqrt(a: bigint): bigint | undefined {
  a = modP(a);
  if (a === 0n) return 0n;
  if (sqrtCache.has(a)) return sqrtCache.get(a);
  sqrtTables ??= buildSqrtTables();
  const tables = sqrtTables;
  // x = a^((Q−1)/2): t = a^Q = a·x², r = a^((Q+1)/2) = a·x; then a = r² · t^(−1) and t = g^e
  const x = modPow(a, (Q - 1n) / 2n);
  let cur = m(a * m(x * x));
  const r = m(a * x);
  let e = 0n;
  for (let k = 0; k < S / W; k++) {
    let u = cur;
    for (let i = 0; i < S - W * (k + 1); i++) u = m(u * u);
    const d = tables.digit.get(u);
    if (d === undefined) throw new Error('sqrt: a value outside the 2^192 subgroup (not a field element?)');
    cur = m(cur * tables.gInvPow[k]![d]!);
    e |= BigInt(d) << BigInt(W * k);
  }
  let root: bigint | undefined;
  if ((e & 1n) === 0n) {
    const y = m(r * modPow(tables.gInv, e >> 1n));
    // biome-ignore lint/complexity/useMathMinMax: Math.min does not take bigints
    root = y < P - y ? y : P - y;
  }
  if (sqrtCache.size >= 1024) sqrtCache.delete(sqrtCache.keys().next().value!);
  sqrtCache.set(a, root);
  return root;
}

const PEDERSEN_POINTS: readonly [bigint, bigint][] = [
  [
    2089986280348253421170679821480865132823066470938446095505822317253594081284n,
    1713931329540660377023406109199410414810705867260802078187082345529207694986n,
  ],
  [
    996781205833008774514500082376783249102396023663454813447423147977397232763n,
    1668503676786377725805489344771023921079126552019160156920634619255970485781n,
  ],
  [
    2251563274489750535117886426533222435294046428347329203627021249169616184184n,
    1798716007562728905295480679789526322175868328062420237419143593021674992973n,
  ],
  [
    2138414695194151160943305727036575959195309218611738193261179310511854807447n,
    113410276730064486255102093846540133784865286929052426931474106396135072156n,
  ],
  [
    2379962749567351885752724891227938183011949129833673362440656643086021394946n,
    776496453633298175483985398648758586525933812536653089401905292063708816422n,
  ],
];
/**
 * Affine points from Jacobian ones, with one field inversion for all (Montgomery's trick); none at infinity.
 */
function normalize(points: readonly Jacobian[]): [bigint, bigint][] {
  const prefix: bigint[] = [];
  let acc = 1n;
  for (const p of points) {
    prefix.push(acc);
    acc = m(acc * p[2]);
  }
  let invAcc = inv(acc);
  const out = new Array<[bigint, bigint]>(points.length);
  for (let i = points.length - 1; i >= 0; i--) {
    const [X, Y, Z] = points[i]!;
    const zi = m(invAcc * prefix[i]!);
    invAcc = m(invAcc * Z);
    const zi2 = m(zi * zi);
    out[i] = [m(X * zi2), m(Y * zi2 * zi)];
  }
  return out;
}

/**
 * Multiples of a fixed base point with 8-bit windows: `rows[i][d − 1] = d·256^i·p` for d in 1..255, i below
 * `windows`. A product by a scalar of 8·windows bits is then one mixed addition per non-zero byte.
 */
function byteWindowTable(p: readonly [bigint, bigint], windows: number): [bigint, bigint][][] {
  const rows: [bigint, bigint][][] = [];
  let base: readonly [bigint, bigint] = p;
  for (let i = 0; i < windows; i++) {
    const row: Jacobian[] = [[base[0], base[1], 1n]];
    for (let d = 2; d <= 256; d++) row.push(jAddAffine(row[d - 2]!, base));
    const affine = normalize(row);
    base = affine.pop()!; // 256·base
    rows.push(affine);
  }
  return rows;
}

/** Byte-window tables of the four Pedersen points (31 windows for the low 248 bits, one for the high 4 bits). */
let pedersenTables: [WasmTable, WasmTable, WasmTable, WasmTable] | undefined;

/**
 * The Starknet Pedersen hash of two felts: the x of `shift + low(a)·P1 + high(a)·P2 + low(b)·P3 + high(b)·P4`
 * (low: the 248 low bits, high: the 4 above). Each point has a table of its byte multiples (built on first use, about
 * 16,000 points, kept in the WebAssembly module), so a hash is at most 64 mixed additions there and one inversion.
 */
export function pedersenHash(a: bigint, b: bigint): bigint {
  pedersenTables ??= [
    wasmTable(byteWindowTable(PEDERSEN_POINTS[1]!, 31)),
    wasmTable(byteWindowTable(PEDERSEN_POINTS[2]!, 1)),
    wasmTable(byteWindowTable(PEDERSEN_POINTS[3]!, 31)),
    wasmTable(byteWindowTable(PEDERSEN_POINTS[4]!, 1)),
  ];
  return fromWasm(wasmPedersen(pedersenTables, modP(a), modP(b)))![0];
}
