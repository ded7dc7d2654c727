// The Stark curve y² = x³ + x + β over the felt252 field, in affine coordinates, and the Pedersen hash
// (internal helpers of the EC and Pedersen handlers).
import { FIELD_PRIME as P } from '../../constants.js';
import { invMod, modP, modPow } from './common.js';
import { type Jacobian, jacobianArithmetic } from './jacobianArithmetic.js';
import { type WasmTable, wasmMulPoint, wasmMulTable, wasmPedersen, wasmTable } from './starkWasm.js';

/** A curve point; `null` is the point at infinity. */
export type CurvePoint = readonly [bigint, bigint] | null;

export const BETA = 0x6f21413efbe40de150e596d72f7a8c5609ad26c15c915c1f4cdfcb99cee9e89n;

const { addAffine: jAddAffine, toAffine, normalize } = jacobianArithmetic(P, 1n);
const inv = (a: bigint): bigint => invMod(modP(a), P)!;

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

/** A Jacobian result of the WebAssembly module as an affine point. */
function fromWasm(j: [bigint, bigint, bigint] | null): CurvePoint {
  return j === null ? null : toAffine(j);
}

/** Base points seen lately (x,y → uses). */
const baseUses = new Map<string, number>();
/** Uses after which a base point gets a table of its byte multiples (32 rows of 255 points, ~0.5 MB). */
const BYTE_TABLE_USES = 64;
/**
 * Byte-window tables of the bases used most (the curve generator, the keys of busy accounts), in the WebAssembly
 * module's memory: at most 8 (a table evicted stays in memory and a new one is added).
 */
const byteTables = new Map<string, WasmTable>();
/** Tables the module holds at most, over the process's life (past it, bases go by double-and-add). */
const MAX_BYTE_TABLES = 64;
let byteTablesMade = 0;

/**
 * `k·p` for 0 ≤ k < 2^256, on the WebAssembly module. A base point used often (a signature check multiplies the
 * curve generator and the same public key every time) gets, at its 64th use, a table of its byte multiples, and then
 * a product is at most 32 mixed additions without doublings; other products go by double-and-add. Both work in
 * Jacobian coordinates with one field inversion at the end.
 */
export function mul(k: bigint, p: CurvePoint): CurvePoint {
  if (p === null || k === 0n) return null;
  if (k >= 1n << 256n) throw new RangeError('mul: the scalar is not below 2^256');
  const key = `${p[0]},${p[1]}`;
  const bytes = byteTables.get(key);
  if (bytes !== undefined) return fromWasm(wasmMulTable(bytes, 32, k));
  const uses = (baseUses.get(key) ?? 0) + 1;
  if (baseUses.size >= 4096) baseUses.clear();
  baseUses.set(key, uses);
  if (uses >= BYTE_TABLE_USES && byteTablesMade < MAX_BYTE_TABLES) {
    const table = wasmTable(byteWindowTable(p, 32));
    byteTablesMade++;
    if (byteTables.size >= 8) byteTables.delete(byteTables.keys().next().value!);
    byteTables.set(key, table);
    return fromWasm(wasmMulTable(table, 32, k));
  }
  return fromWasm(wasmMulPoint(p, k));
}

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
  while (modPow(z, (P - 1n) / 2n, P) !== P - 1n) z++;
  const g = modPow(z, Q, P);
  const gInv = inv(g);
  const gInvPow: bigint[][] = [];
  let base = gInv; // g^(−2^(W·k))
  for (let k = 0; k < S / W; k++) {
    const row = [1n];
    for (let d = 1; d < 1 << W; d++) row.push(modP(row[d - 1]! * base));
    gInvPow.push(row);
    for (let i = 0; i < W; i++) base = modP(base * base);
  }
  let h = g;
  for (let i = 0; i < S - W; i++) h = modP(h * h);
  const digit = new Map<bigint, number>();
  for (let d = 0, x = 1n; d < 1 << W; d++, x = modP(x * h)) digit.set(x, d);
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
  const x = modPow(a, (Q - 1n) / 2n, P);
  let cur = modP(a * modP(x * x));
  const r = modP(a * x);
  let e = 0n;
  for (let k = 0; k < S / W; k++) {
    let u = cur;
    for (let i = 0; i < S - W * (k + 1); i++) u = modP(u * u);
    const d = tables.digit.get(u);
    if (d === undefined) throw new Error('sqrt: a value outside the 2^192 subgroup (not a field element?)');
    cur = modP(cur * tables.gInvPow[k]![d]!);
    e |= BigInt(d) << BigInt(W * k);
  }
  let root: bigint | undefined;
  if ((e & 1n) === 0n) {
    const y = modP(r * modPow(tables.gInv, e >> 1n, P));
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
