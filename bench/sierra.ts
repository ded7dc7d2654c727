// npm run bench -- sierra [--n ITERATIONS] [--runs 7] [--transfers 100] [--rounds 3]
// (a) The interpreter alone:
// Statements per second of the Sierra interpreter (@nodegate/sierra-vm) on a compute-heavy program compiled by
// wasm-cairo (packages/sierra-vm/test-programs/bench_loop.cairo: felt252 Fibonacci, a u128 congruential generator
// modulo 2^31 - 1, a u32 counter, one gas withdrawal per iteration), run through `runFunction` and through the fast
// loop `runLoop`; the same-run baseline is the same computation in plain TypeScript bigint (checked u128/u32
// arithmetic, felt252 addition modulo P). Each figure is the median of --runs timed runs after one warm-up run, the
// three variants timed in turn (round-robin) so that a change of load affects them alike.
// (b) Transactions: signed ERC20 transfers per second on the dev chain through a user-declared account class and a
// user-declared ERC20 class (the Cairo compiler's test `account` and `erc_20`, both run on the VM), against the dev
// chain's native account and STRK token in the same run (bench/support/sierraTransfers.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIELD_PRIME, parseSierraText, runFunction, type Value } from '../packages/sierra-vm/dist/index.js';
import { newRunContext } from '../packages/sierra-vm/dist/vm/newRunContext.js';
import { runLoop } from '../packages/sierra-vm/dist/vm/runLoop.js';
import { measureSierraTransfers } from './support/sierraTransfers.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const n = arg('n', 200_000);
const runs = arg('runs', 7);

const file = join(import.meta.dirname, '..', 'packages', 'sierra-vm', 'test-programs', 'bench_loop.sierra.json');
const { program, funcNames } = parseSierraText(JSON.parse(readFileSync(file, 'utf8')).sierraText);
const runId = [...funcNames].find(([, name]) => name.endsWith('::run'))![0];
const gas = 10n ** 15n;

/**
 * Times several variants round-robin (one warm-up run each, then `runs` rounds), so that a load change on the machine
 * affects all of them alike; returns each variant's median time and last result.
 */
function medians<T extends Record<string, () => unknown>>(
  variants: T,
): { [K in keyof T]: { ms: number; result: ReturnType<T[K]> } } {
  const names = Object.keys(variants) as (keyof T)[];
  const results = new Map<keyof T, unknown>(names.map((k) => [k, variants[k]!()]));
  const times = new Map<keyof T, number[]>(names.map((k) => [k, []]));
  for (let r = 0; r < runs; r++) {
    for (const k of names) {
      const t0 = performance.now();
      results.set(k, variants[k]!());
      times.get(k)!.push(performance.now() - t0);
    }
  }
  return Object.fromEntries(
    names.map((k) => {
      const t = times.get(k)!.sort((a, b) => a - b);
      return [k, { ms: t[Math.floor(runs / 2)]!, result: results.get(k) }];
    }),
  ) as { [K in keyof T]: { ms: number; result: ReturnType<T[K]> } };
}

/** The Ok tuple of `run`'s `PanicResult<(felt252, u128)>`, as bigints. */
function okPair(returned: Value[]): [bigint, bigint] {
  const last = returned[returned.length - 1] as { tag: number; value: Value };
  if (last.tag !== 0) throw new Error('the benchmark program panicked');
  const inner = (last.value as Value[])[0] as Value[];
  return [inner[0] as bigint, inner[1] as bigint];
}

const U128_MAX = (1n << 128n) - 1n;
const U32_MAX = (1n << 32n) - 1n;
/** The same loop in plain bigint, with the overflow checks the Cairo code makes. */
function native(iterations: bigint): [bigint, bigint] {
  let a = 0n;
  let b = 1n;
  let x = 1n;
  for (let i = 0n; i !== iterations; ) {
    let c = a + b;
    if (c >= FIELD_PRIME) c -= FIELD_PRIME;
    a = b;
    b = c;
    const m = x * 48271n;
    if (m > U128_MAX) throw new Error('u128_mul Overflow');
    const s = m + 11n;
    if (s > U128_MAX) throw new Error('u128_add Overflow');
    x = s % 2147483647n;
    i += 1n;
    if (i > U32_MAX) throw new Error('u32_add Overflow');
  }
  return [b, x];
}

function loopRun() {
  const vars: Value[] = [];
  for (const p of program.funcs[runId]!.params) {
    const g = program.typeDeclarations[p.ty]!.genericId;
    vars[p.id] = g === 'GasBuiltin' ? gas : g === 'u32' ? BigInt(n) : null;
  }
  return runLoop(program, runId, vars, { ...newRunContext(), statementGasCost: 100 }, 1e12);
}
const timed = medians({
  runFunction: () => runFunction(program, runId, [BigInt(n)], { funcNames, availableGas: gas }),
  runLoop: loopRun,
  baseline: () => native(BigInt(n)),
});
const viaRunFunction = timed.runFunction;
const viaLoop = timed.runLoop;
const baseline = timed.baseline;
const steps = viaRunFunction.result.steps;

const expected = baseline.result;
for (const [name, got] of [
  ['runFunction', okPair(viaRunFunction.result.returnValues)],
  ['runLoop', okPair(viaLoop.result.returned)],
] as const) {
  if (got[0] !== expected[0] || got[1] !== expected[1]) throw new Error(`${name} result differs from the baseline`);
}
if (viaLoop.result.steps !== steps) throw new Error('runLoop and runFunction ran different statement counts');

const perSec = (count: number, ms: number) => (count / ms) * 1000;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const rows: [string, number][] = [
  ['interpreter, runFunction', viaRunFunction.ms],
  ['interpreter, runLoop (fast loop)', viaLoop.ms],
  ['baseline: plain TypeScript bigint', baseline.ms],
];
process.stdout.write(
  `bench_loop run(${n}): ${fmt(steps)} Sierra statements (${(steps / n).toFixed(1)} per iteration), median of ${runs}\n\n`,
);
for (const [name, ms] of rows) {
  const stmts = name.startsWith('baseline') ? '' : `  ${fmt(perSec(steps, ms)).padStart(12)} statements/s`;
  process.stdout.write(
    `${name.padEnd(36)} ${ms.toFixed(1).padStart(9)} ms  ${fmt(perSec(n, ms)).padStart(12)} iterations/s${stmts}\n`,
  );
}
process.stdout.write(
  `\nratio (interpreter time / baseline time): runFunction ${(viaRunFunction.ms / baseline.ms).toFixed(1)}x, runLoop ${(viaLoop.ms / baseline.ms).toFixed(1)}x\n`,
);

const transfers = arg('transfers', 100);
const transferRounds = arg('rounds', 3);
process.stdout.write(
  `\nsigned ERC20 transfers on the dev chain (${transferRounds} interleaved rounds of ${transfers}, medians; signed beforehand, submitted one after another)\n`,
);
const tx = await measureSierraTransfers({
  rounds: transferRounds,
  count: transfers,
  log: (line) => process.stdout.write(`  ${line}\n`),
});
process.stdout.write(
  `user account + user ERC20 on the VM  ${tx.vm.toFixed(0).padStart(6)} tx/s (goal >= 100)\n` +
    `native account + native STRK         ${tx.native.toFixed(0).padStart(6)} tx/s\n` +
    `ratio VM / native                    ${(tx.vm / tx.native).toFixed(2).padStart(6)} (goal >= 0.6)\n`,
);
