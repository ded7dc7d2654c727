// What the scripts that compile Cairo with the wasm-cairo devDependency (the Cairo compiler and runner in
// WebAssembly) share: loading it, and the sources to work on.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

/**
 * wasm-cairo, initialised, with the label the scripts write in their outputs (`wasm-cairo <version>`).
 *
 * @example
 * const { compiler, cairo } = await loadWasmCairo();
 * cairo.compileCairoProgram(source, true);
 */
export async function loadWasmCairo() {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('wasm-cairo/package.json');
  const pkgDir = dirname(pkgPath);
  const { version } = JSON.parse(readFileSync(pkgPath, 'utf8'));
  const cairo = await import(join(pkgDir, 'wasm-cairo.js'));
  cairo.initSync({ module: readFileSync(join(pkgDir, 'wasm-cairo_bg.wasm')) });
  return { compiler: `wasm-cairo ${version}`, cairo };
}

/** The names (without `.cairo`) given on the command line, else those of every `.cairo` file in `dir`, sorted. */
export function cairoNames(dir, args = process.argv.slice(2)) {
  if (args.length > 0) return args.map((n) => basename(n, '.cairo'));
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cairo'))
    .map((f) => basename(f, '.cairo'))
    .sort();
}
