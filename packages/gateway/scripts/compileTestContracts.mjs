#!/usr/bin/env node
// Compiles each Starknet contract of ../test-contracts (or those named on the command line) with wasm-cairo (the
// Cairo compiler in WebAssembly, a devDependency of @nodegate/sierra-vm) and writes `<name>.contract_class.json`
// beside its `<name>.cairo`: the class as a declarer sends it (sierra_program, entry points, ABI), which the
// gateway's end-to-end tests declare on the dev chain. Slow (about a minute per contract), so its output is committed.
// wasm-cairo is a 32-bit build: it writes a fall-through branch target as 2^32 - 1 where a 64-bit compiler (and the
// Starknet sequencer's decoder) uses 2^64 - 1, so the program is decoded, those targets are set to fall-through, and
// it is encoded again (with @nodegate/sierra-vm; build it first with `npx tsc -b`), as a 64-bit compiler would write it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('wasm-cairo/package.json'));
const { initSync, compileStarknetContract } = await import(join(pkgDir, 'wasm-cairo.js'));
initSync({ module: readFileSync(join(pkgDir, 'wasm-cairo_bg.wasm')) });

const { decodeSierraProgram, encodeSierraProgram } = await import('@nodegate/sierra-vm');
const WASM32_FALLTHROUGH = 2 ** 32 - 1;
/** The class's program with wasm32 fall-through targets written as a 64-bit compiler writes them. */
function as64Bit(program) {
  const decoded = decodeSierraProgram(program);
  let fixed = 0;
  for (const s of decoded.program.statements) {
    if (s.kind !== 'invocation') continue;
    for (const b of s.branches)
      if (b.target === WASM32_FALLTHROUGH) {
        b.target = 'fallthrough';
        fixed++;
      }
  }
  return { felts: encodeSierraProgram(decoded).map((f) => `0x${f.toString(16)}`), fixed };
}

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-contracts');
const names =
  process.argv.length > 2
    ? process.argv.slice(2).map((n) => basename(n, '.cairo'))
    : readdirSync(dir)
        .filter((f) => f.endsWith('.cairo'))
        .map((f) => basename(f, '.cairo'));
let failed = 0;
for (const name of names) {
  const t = Date.now();
  const out = compileStarknetContract(readFileSync(join(dir, `${name}.cairo`), 'utf8'), false, false);
  let cls;
  try {
    cls = JSON.parse(out);
  } catch {
    failed++;
    console.error(`${name}: compilation failed:\n${out}`);
    continue;
  }
  const { contract_class_version, entry_points_by_type, abi } = cls;
  const { felts: sierra_program, fixed } = as64Bit(cls.sierra_program);
  const written = { sierra_program, contract_class_version, entry_points_by_type, abi };
  writeFileSync(join(dir, `${name}.contract_class.json`), `${JSON.stringify(written, null, 1)}\n`);
  console.log(`${name}: compiled in ${(Date.now() - t) / 1000} s (${sierra_program.length} felts, ${fixed} fall-through targets rewritten)`);
}
process.exitCode = failed === 0 ? 0 : 1;
