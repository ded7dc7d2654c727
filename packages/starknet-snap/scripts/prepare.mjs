#!/usr/bin/env node
// Makes the snap ready for `npm test` on a fresh clone: typechecks the package (type errors fail the run),
// then builds the bundle with the default build configuration, which also rewrites the manifest shasum.
// Run by the root scripts/ensure.mjs after `tsc -b`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(pkg, '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

function run(label, cmd, args, env = {}) {
  process.stderr.write(`[starknet-snap] ${label}\n`);
  const r = spawnSync(cmd, args, { cwd: pkg, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    process.stderr.write(`[starknet-snap] ${label} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
}

run('typecheck (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
// The committed manifest matches the default build: never let an e2e output dir leak into this build.
run('build (mm-snap build)', bin('mm-snap'), ['build'], { SNAP_OUT_DIR: '' });
