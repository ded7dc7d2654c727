#!/usr/bin/env node
// The whole suite: lint, then every test runner, then one closing line
// "N passed, N failed" summed over all runners. Exit code 1 when anything failed.
// (Typecheck happens in the pretest build: `tsc -b` over every workspace.)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);
const extra = process.argv.slice(2);

let passed = 0;
let failed = 0;
let broken = false;
/** Names of what failed, printed again just above the closing line (a CI log's tail shows them). */
const failures = [];

/** Collects failed tests (vitest and jest JSON share the shape) as "file > test: first message line". */
function noteFailures(runner, report) {
  for (const suite of report.testResults ?? []) {
    const file = String(suite.name ?? '').replace(`${root}/`, '');
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (suite.status === 'failed' && failedTests.length === 0) {
      failures.push(`${runner}: ${file}: did not load: ${firstLine(suite.message)}`);
    }
    for (const t of failedTests) {
      failures.push(`${runner}: ${file} > ${t.fullName ?? t.title}: ${firstLine((t.failureMessages ?? [])[0])}`);
    }
  }
}

function firstLine(text) {
  const line = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function step(label, cmd, args, opts = {}) {
  process.stderr.write(`\n[nodegate test] ${label}\n`);
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? root, stdio: 'inherit', env: { ...process.env, ...opts.env } });
  return r.status ?? 1;
}

// 1. Lint (biome). A lint failure counts as one failed check.
if (extra.length === 0) {
  if (step('lint (biome)', bin('biome'), ['lint', '--error-on-warnings', '.']) === 0) passed += 1;
  else {
    failed += 1;
    failures.push('lint (biome): see its output above');
  }
}

// 2. Vitest across every package (projects in vitest.config.ts).
const vitestJson = join(out, 'vitest.json');
const vStatus = step('vitest', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
  ...extra,
]);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
  noteFailures('vitest', r);
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  // Suites that failed to load count as failures too.
  const brokenSuites = (r.testResults ?? []).filter(
    (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
  );
  failed += brokenSuites.length;
  if (vStatus !== 0 && (r.numFailedTests ?? 0) === 0 && brokenSuites.length === 0) broken = true;
} else if (vStatus !== 0) {
  broken = true;
}

// 2b. Tests that measure latency or rates, one file at a time on a quiet machine.
if (extra.length === 0) {
  const serialJson = join(out, 'vitest-serial.json');
  const sStatus = step('vitest (serial: latency and rate measurements)', bin('vitest'), [
    'run',
    '--config',
    join(root, 'packages', 'gateway', 'vitest.serial.config.ts'),
    '--root',
    join(root, 'packages', 'gateway'),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${serialJson}`,
  ]);
  if (existsSync(serialJson)) {
    const r = JSON.parse(readFileSync(serialJson, 'utf8'));
    noteFailures('vitest (serial)', r);
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
    const brokenSuites = (r.testResults ?? []).filter(
      (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
    );
    failed += brokenSuites.length;
    if (sStatus !== 0 && (r.numFailedTests ?? 0) === 0 && brokenSuites.length === 0) broken = true;
  } else if (sStatus !== 0) {
    broken = true;
  }
}

// 3. Jest for the snap (@metamask/snaps-jest), when the package exists.
const snapDir = join(root, 'packages', 'starknet-snap');
if (extra.length === 0 && existsSync(join(snapDir, 'jest.config.js'))) {
  const jestJson = join(out, 'jest.json');
  const jStatus = step('jest (starknet-snap)', bin('jest'), ['--json', `--outputFile=${jestJson}`], { cwd: snapDir });
  if (existsSync(jestJson)) {
    const r = JSON.parse(readFileSync(jestJson, 'utf8'));
    noteFailures('jest', r);
    passed += r.numPassedTests ?? 0;
    failed += (r.numFailedTests ?? 0) + (r.numRuntimeErrorTestSuites ?? 0);
    if (jStatus !== 0 && (r.numFailedTests ?? 0) === 0 && (r.numRuntimeErrorTestSuites ?? 0) === 0) broken = true;
  } else if (jStatus !== 0) {
    broken = true;
  }
}

if (broken) {
  failed += 1;
  failures.push('a runner exited with an error and no failed test in its report: see its output above');
}
if (failures.length > 0) {
  process.stdout.write(`\n[nodegate test] what failed:\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
