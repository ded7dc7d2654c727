#!/usr/bin/env node
// Makes a fresh clone ready to run: installs npm packages when they are missing or
// older than the lockfile, then builds every workspace (tsc -b is incremental, so a
// second run is quick). Uses only Node built-ins, because it runs before any install.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const marker = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

function run(cmd, args, label) {
  process.stderr.write(`[nodegate] ${label}…\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`[nodegate] ${label} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
}

const needsInstall = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs);
if (needsInstall) {
  run('npm', ['install', '--no-audit', '--no-fund'], 'installing npm packages');
}
run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], 'building (tsc -b)');
// The dashboard (a Vite build the gateway serves): rebuilt when dist/index.html is missing or
// older than any of its sources, so `npm start` serves the current one on a fresh clone.
const dashboard = join(root, 'packages', 'dashboard');
if (existsSync(join(dashboard, 'package.json'))) {
  const built = join(dashboard, 'dist', 'index.html');
  const newest = (path) => {
    const info = statSync(path);
    if (!info.isDirectory()) return info.mtimeMs;
    return Math.max(info.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
  };
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json']
    .map((f) => join(dashboard, f))
    .filter((f) => existsSync(f));
  const stale = !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
  if (stale) {
    run(
      'npm',
      ['run', 'build', '--silent', '-w', '@nodegate/dashboard', '--', '--logLevel', 'warn'],
      'building the dashboard (typecheck + vite build in packages/dashboard)',
    );
  } else {
    process.stderr.write('[nodegate] dashboard is up to date\n');
  }
}
// Packages built by their own toolchain (the snap: typecheck + mm-snap build) are prepared
// for the test suite only; `npm start` does not need them.
if (process.argv.includes('--all')) {
  for (const hook of ['packages/starknet-snap/scripts/prepare.mjs']) {
    if (existsSync(join(root, hook))) run(process.execPath, [join(root, hook)], `preparing ${hook.split('/')[1]}`);
  }
}
