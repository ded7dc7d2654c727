#!/usr/bin/env node
// Compiles every Cairo program of ../test-programs (or the ones named on the command line) with wasm-cairo and
// runs it on the real Cairo runner, writing next to each `<name>.cairo`:
// - `<name>.sierra.json`: `{ compiler, sierraText }`, the Sierra text of the program (debug names kept), read by
//   `src/vm/parseSierraText.ts`;
// - `<name>.expected.json`: `{ compiler, availableGas, output }`, the runner's raw output.
// A program may set the gas given to the runner with a `// available_gas: N` line (default 10000000).
// Slow: wasm-cairo needs about a minute per compilation and as much per run.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cairoNames, loadWasmCairo } from './wasmCairo.mjs';

const { compiler, cairo } = await loadWasmCairo();

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-programs');
const names = cairoNames(dir);

let failed = 0;
for (const name of names) {
  try {
    generate(name);
  } catch (e) {
    failed++;
    console.error(String(e));
  }
}
process.exitCode = failed === 0 ? 0 : 1;

function generate(name) {
  const source = readFileSync(join(dir, `${name}.cairo`), 'utf8');
  const gasLine = /^\/\/ available_gas: (\d+)$/m.exec(source);
  const availableGas = gasLine ? Number(gasLine[1]) : 10_000_000;
  let t = Date.now();
  const sierraText = cairo.compileCairoProgram(source, true);
  if (!sierraText.includes('libfunc ')) throw new Error(`${name}: compilation failed:\n${sierraText}`);
  writeFileSync(join(dir, `${name}.sierra.json`), `${JSON.stringify({ compiler, sierraText }, null, 2)}\n`);
  console.log(`${name}: compiled in ${(Date.now() - t) / 1000} s`);
  t = Date.now();
  const output = cairo.runCairoProgram(source, availableGas, false, false, false, false);
  writeFileSync(join(dir, `${name}.expected.json`), `${JSON.stringify({ compiler, availableGas, output }, null, 2)}\n`);
  console.log(`${name}: ran in ${(Date.now() - t) / 1000} s: ${output.trim()}`);
}
