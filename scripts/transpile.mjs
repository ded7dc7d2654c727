#!/usr/bin/env node
// The quick build `npm start` uses while the clone has only the start install (no TypeScript):
// packages/<p>/src/**/*.ts → packages/<p>/dist/**/*.js for the gateway and the workspaces it depends
// on, with Node's own type stripping (`module.stripTypeScriptTypes`). No type check and no .d.ts:
// `tsc -b` (`npm run build`, and `npm test`'s pretest) does both and rewrites dist. Test files are
// skipped. Incremental: a file is rewritten only when its source is newer. In strip mode the code
// keeps its line and column positions, so stack traces point at the source; files using syntax that
// needs a transform (parameter properties) get an inline source map instead.
//
//   node --disable-warning=ExperimentalWarning scripts/transpile.mjs
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();

/** Workspace directories by package name. */
const workspaces = new Map();
for (const dir of readdirSync(join(root, 'packages'))) {
  try {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
    workspaces.set(pkg.name, { dir: join(root, 'packages', dir), pkg });
  } catch {
    // not a package
  }
}

/** The gateway and, transitively, the workspaces among its dependencies. */
const wanted = [];
const queue = ['@nodegate/gateway'];
while (queue.length > 0) {
  const name = queue.shift();
  const ws = workspaces.get(name);
  if (!ws || wanted.includes(ws)) continue;
  wanted.push(ws);
  queue.push(...Object.keys(ws.pkg.dependencies ?? {}).filter((d) => workspaces.has(d)));
}

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
};

let written = 0;
let current = 0;
for (const { dir } of wanted) {
  const src = join(dir, 'src');
  for (const rel of readdirSync(src, { recursive: true })) {
    if (!rel.endsWith('.ts') || rel.endsWith('.d.ts') || rel.endsWith('.test.ts')) continue;
    const from = join(src, rel);
    const to = join(dir, 'dist', rel.replace(/\.ts$/, '.js'));
    if (mtime(to) >= mtime(from)) {
      current++;
      continue;
    }
    const code = readFileSync(from, 'utf8');
    let js;
    try {
      js = stripTypeScriptTypes(code, { mode: 'strip' });
    } catch {
      js = stripTypeScriptTypes(code, { mode: 'transform', sourceMap: true, sourceUrl: rel });
    }
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, js);
    written++;
  }
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stderr.write(
  `[nodegate]   ${written} files transpiled, ${current} up to date (${wanted.length} packages, ${seconds} s)\n`,
);
