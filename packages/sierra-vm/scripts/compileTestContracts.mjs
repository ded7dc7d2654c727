#!/usr/bin/env node
// Compiles each Starknet contract of ../test-contracts (or those named on the command line) with the wasm-cairo
// devDependency (the Cairo 2.8 compiler in WebAssembly) and writes `<name>.contract_class.json` beside its
// `<name>.cairo`: the contract class as a declarer sends it (sierra_program, entry points, ABI). Slow (a minute or
// more per contract), so the output is committed and the tests read it. Warnings are allowed (the compiler prints
// none of them, and they are no reason to refuse a test contract).
//
// wasm-cairo is built for wasm32, where the compiler's `usize::MAX` is 2^32 − 1: it writes the fall-through branch
// target as 2^32 − 1 instead of the 2^64 − 1 of the (64-bit) Scarb compiler, a statement index no program has. The
// script rewrites those targets (decoding and re-encoding the program with this package's dist, so run `npx tsc -b`
// first): the class is then the one a native compiler writes, and runs on a chain.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cairoNames, loadWasmCairo } from './wasmCairo.mjs';

const { compiler, cairo } = await loadWasmCairo();
const { decodeSierraProgram, encodeSierraProgram, longGenericIdsFromDebugInfo } = await import('../dist/index.js');

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-contracts');
const names = cairoNames(dir);

let failed = 0;
for (const name of names) {
  const t = Date.now();
  const out = cairo.compileStarknetContract(readFileSync(join(dir, `${name}.cairo`), 'utf8'), true, false);
  let cls;
  try {
    cls = JSON.parse(out);
  } catch {
    failed++;
    console.error(`${name}: compilation failed:\n${out}`);
    continue;
  }
  const { sierra_program_debug_info, contract_class_version, entry_points_by_type, abi } = cls;
  const sierra_program = nativeFallthrough(cls.sierra_program, sierra_program_debug_info);
  const written = {
    compiler,
    sierra_program,
    sierra_program_debug_info,
    contract_class_version,
    entry_points_by_type,
    abi,
  };
  writeFileSync(join(dir, `${name}.contract_class.json`), `${JSON.stringify(written, null, 1)}\n`);
  console.log(`${name}: compiled in ${(Date.now() - t) / 1000} s (${sierra_program.length} felts)`);
}
process.exitCode = failed === 0 ? 0 : 1;

/** The program with each 2^32 − 1 branch target (wasm32's fall-through) written as the fall-through 2^64 − 1. */
function nativeFallthrough(felts, debugInfo) {
  const options = { longGenericIds: longGenericIdsFromDebugInfo(debugInfo) };
  const decoded = decodeSierraProgram(felts, options);
  const count = decoded.program.statements.length;
  let fixed = 0;
  for (const s of decoded.program.statements) {
    if (s.kind !== 'invocation') continue;
    for (const b of s.branches) {
      if (b.target === 2 ** 32 - 1 && b.target >= count) {
        b.target = 'fallthrough';
        fixed++;
      }
    }
  }
  if (fixed === 0) return felts;
  return encodeSierraProgram(decoded, options).map((x) => `0x${x.toString(16)}`);
}
