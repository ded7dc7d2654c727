// The Node.js runtime nodegate runs on, pinned by the project: the exact version of the `node`
// dependency in the root package.json. npm scripts find it as node_modules/.bin/node (npm puts
// node_modules/.bin first on PATH), so `npm start`, `npm test`, `npm run bench` and `npx nodegate`
// run on it whatever Node the machine has. Before the first install there is no
// node_modules/.bin/node yet: `ensureRuntime()` then fetches the same version's binary from the npm
// registry (the platform package `node-<os>-<cpu>`, checked by npm against the registry's
// integrity hash), keeps it in ~/.cache/nodegate/runtime, and re-runs the calling script on it, so
// `npm install` itself runs on the pinned runtime (no EBADENGINE warnings). Node built-ins only.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The pinned version, e.g. "24.21.0" (the root package.json's `node` dependency). */
export function pinnedVersion() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const version = pkg.dependencies?.node;
  if (!/^\d+\.\d+\.\d+$/.test(version ?? '')) {
    throw new Error('package.json: dependencies.node must be an exact version (the pinned runtime)');
  }
  return version;
}

function versionOf(binary) {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The npm CLI script the machine's npm runs (npm_execpath under npm, else `npm` on PATH). */
export function npmCli() {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv && /npm-cli\.js$/.test(fromEnv) && existsSync(fromEnv)) return fromEnv;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'npm');
    if (!existsSync(candidate)) continue;
    const real = realpathSync(candidate);
    const cli = real.endsWith('npm-cli.js')
      ? real
      : join(dirname(real), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    if (existsSync(cli)) return cli;
    const sibling = join(dirname(real), 'npm-cli.js');
    if (existsSync(sibling)) return sibling;
  }
  throw new Error('npm not found on PATH: install Node.js with npm (any version from 20 on) to bootstrap nodegate');
}

/** Fetches node-<os>-<cpu>@version into the user cache (once) and returns its binary. */
function fetchRuntime(version) {
  const pkgName = `node-${process.platform}-${process.arch}`;
  const dir = join(homedir(), '.cache', 'nodegate', 'runtime', `${pkgName}-${version}`);
  const binary = join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (existsSync(binary) && versionOf(binary) === `v${version}`) return binary;
  process.stderr.write(`[nodegate] fetching the Node.js ${version} runtime (${pkgName} from the npm registry)…\n`);
  const tmp = `${dir}.partial-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const pack = spawnSync(
    process.execPath,
    [npmCli(), 'pack', `${pkgName}@${version}`, '--pack-destination', tmp, '--silent'],
    { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const tarball = pack.stdout?.trim().split('\n').pop();
  if (pack.status !== 0 || !tarball) throw new Error(`npm pack ${pkgName}@${version} failed`);
  const untar = spawnSync('tar', ['-xzf', join(tmp, tarball), '-C', tmp, '--strip-components=1'], { stdio: 'inherit' });
  if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed`);
  rmSync(join(tmp, tarball), { force: true });
  chmodSync(join(tmp, 'bin', 'node'), 0o755);
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return binary;
}

/**
 * Makes sure the calling script runs on the pinned runtime: returns when it already does;
 * otherwise runs the script again on it (node_modules/.bin/node once installed, the cached
 * binary before) and exits with its status.
 */
export function ensureRuntime() {
  const version = pinnedVersion();
  if (process.version === `v${version}`) return;
  if (process.env.NODEGATE_RUNTIME_REEXEC) {
    throw new Error(`expected Node.js ${version}, running ${process.version}`);
  }
  const installed = join(root, 'node_modules', '.bin', 'node');
  const binary = existsSync(installed) && versionOf(installed) === `v${version}` ? installed : fetchRuntime(version);
  const r = spawnSync(binary, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODEGATE_RUNTIME_REEXEC: '1',
      // the runtime's directory first, so tools this script starts by name find it as `node`
      PATH: `${dirname(binary)}${delimiter}${process.env.PATH ?? ''}`,
    },
  });
  process.exit(r.status ?? 1);
}
