#!/usr/bin/env node
// `npm run bench -- <name> [args…]` runs bench/<name>.ts (with tsx) after the build, or one of the
// named runs below that live in bench/support/.
// Each benchmark prints its figures and a ratio against a baseline measured in the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Runs that are not a bench/<name>.ts of their own: their file and the node flags they need. */
const NAMED = {
  // the response cache's bound over 10 minutes of random keys, memory and Redis stores
  'cache-soak': { file: 'bench/support/cacheSoak.ts', flags: ['--expose-gc'] },
  // the upstream HTTP clients alone, with the gateway's young generation
  client: { file: 'bench/client.ts', flags: ['--max-semi-space-size=8'] },
};
const [name, ...args] = process.argv.slice(2);
const available = [
  ...readdirSync(join(root, 'bench'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3)),
  ...Object.keys(NAMED),
];
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <name>\navailable: ${available.join(', ') || '(none yet)'}\n`);
  process.exit(name ? 2 : 0);
}
const named = Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
const file = join(root, named?.file ?? join('bench', `${name}.ts`));
if (!existsSync(file)) process.exit(2);
const r = spawnSync(process.execPath, [...(named?.flags ?? []), '--import', 'tsx', file, ...args], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
