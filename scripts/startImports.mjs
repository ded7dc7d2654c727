// Whether the start install (scripts/install.mjs) holds every package the gateway imports when it runs.
// A package imported at run time but declared only as a development dependency (or not at all) is in a
// full install, so the tests pass, but not in the start install: `npm start` on a fresh clone would
// crash. scripts/ensure.mjs asks before a start install and installs everything instead when something
// is missing, naming it. Node built-ins only.
//
// What runs: the gateway's CLI and, in the workspaces it depends on, their package entry points and
// bins (test helpers under testing/ excluded), then every file these reach through a relative `.js`
// path (static and dynamic imports, `new URL('./x.js', import.meta.url)` workers).
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { plannedPackages, resolveIn } from './install.mjs';

const RELATIVE = /['"`](\.{1,2}\/[^'"`]+)\.js['"`]/g;
const BARE = /(?:\bfrom|\bimport\s*\(|\bimport)\s*['"]((?:@[\w.-]+\/)?\w[\w.-]*(?:\/[\w.@/-]*)?)['"]/g;

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The run-time imports the start install does not provide, as `file: package` lines (empty when
 * it provides them all).
 */
export function missingFromStartInstall(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const planned = new Set(plannedPackages(root, 'start'));
  const workspaces = new Map();
  for (const [key, entry] of Object.entries(lock)) {
    if (entry.link && entry.resolved) workspaces.set(key.replace(/^node_modules\//, ''), entry.resolved);
  }
  const toSource = (dir, distPath) =>
    join(root, dir, distPath.replace(/^\.?\/?dist\//, 'src/').replace(/\.js$/, '.ts'));
  const entriesOf = (name) => {
    const dir = workspaces.get(name);
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const targets = Object.entries(pkg.exports ?? {})
      .filter(([sub]) => !sub.includes('testing') && sub !== './package.json')
      .map(([, v]) => (typeof v === 'string' ? v : v.default))
      .concat(Object.values(typeof pkg.bin === 'string' ? { bin: pkg.bin } : (pkg.bin ?? {})));
    return targets.filter((t) => typeof t === 'string' && t.includes('dist/')).map((t) => toSource(dir, t));
  };
  const queue = [join(root, 'packages', 'gateway', 'src', 'cli', 'main.ts')];
  const seenWorkspaces = new Set(['@nodegate/gateway']);
  for (const name of seenWorkspaces) queue.push(...entriesOf(name));
  const seen = new Set();
  const missing = [];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    // type-only imports are erased when the code runs
    const code = readFileSync(file, 'utf8').replace(/\b(?:import|export)\s+type\s[^;]*?from\s*['"][^'"]*['"]/g, '');
    for (const [, path] of code.matchAll(RELATIVE)) queue.push(resolve(dirname(file), `${path}.ts`));
    const from = relative(root, file).split('/src/')[0];
    for (const [, spec] of code.matchAll(BARE)) {
      if (isBuiltin(spec)) continue;
      const name = packageName(spec);
      if (workspaces.has(name)) {
        if (!seenWorkspaces.has(name)) {
          seenWorkspaces.add(name);
          queue.push(...entriesOf(name));
        }
        continue;
      }
      const key = resolveIn(lock, from, name);
      if (!key || !planned.has(key)) missing.push(`${relative(root, file)}: ${name}`);
    }
  }
  return missing;
}
