#!/usr/bin/env node
// `npm run bench -- <name> [args…]` runs bench/<name>.ts (with tsx) after the build.
// Each benchmark prints its figures and a ratio against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
const available = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <name>\navailable: ${available.join(', ') || '(none yet)'}\n`);
  process.exit(name ? 2 : 0);
}
const file = join(root, 'bench', `${name}.ts`);
if (!existsSync(file)) process.exit(2);
const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { cwd: root, stdio: 'inherit' });
process.exit(r.status ?? 1);
