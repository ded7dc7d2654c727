// npm installs for scripts/ensure.mjs, with a progress line (npm itself prints nothing until it is done).
//
// Two kinds, both from package-lock.json (same versions, same places in node_modules):
// - "full": `npm install`, every workspace with its development tools (what `npm test` needs);
// - "start": only what `npm start` runs and builds: the production dependencies of the gateway,
//   the dashboard and the root (the pinned `node`), plus the few development-only packages named
//   in START_EXTRAS. About a fifth of the full install; a later full install adds the rest.
// Node built-ins only: this runs before anything is installed.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

/** The workspaces `npm start` runs (the gateway brings its own workspace dependencies) or builds. */
export const START_WORKSPACES = ['@nodegate/gateway', '@nodegate/dashboard'];

/**
 * Development-only packages the start install adds (at their locked versions):
 * vite, @vitejs/plugin-react: the dashboard's build (devDependencies of packages/dashboard).
 * (What the gateway imports at run time is in its dependencies; `startImports.mjs` checks that.)
 */
export const START_EXTRAS = ['vite', '@vitejs/plugin-react'];

/** Whether the start install skips install scripts (not on Windows, where npm links bins as shims). */
const SKIP_SCRIPTS = process.platform !== 'win32';

function readLock(root) {
  return JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
}

/** glibc or musl on Linux (process.report is slow: asked once). */
let libc;
function fitsPlatform(entry) {
  const fits = (list, value) => !list || list.some((v) => v === value || (v.startsWith('!') && v.slice(1) !== value));
  if (entry.libc && libc === undefined) {
    libc = process.platform !== 'linux' ? '' : process.report.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl';
  }
  return (
    fits(entry.os, process.platform) &&
    fits(entry.cpu, process.arch) &&
    (!entry.libc || !libc || fits(entry.libc, libc))
  );
}

/** The lockfile entry npm resolves `name` to from the package at `from` (Node's lookup, upwards). */
export function resolveIn(packages, from, name) {
  let base = from;
  for (;;) {
    const key = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[key]) return key;
    if (!base) return undefined;
    const up = base.lastIndexOf('/node_modules/');
    base = up >= 0 ? base.slice(0, up) : '';
  }
}

/** How many packages the install places (an estimate from the lockfile, for the progress line). */
export function plannedCount(root, kind) {
  return plannedPackages(root, kind).length;
}

/** The lockfile paths (…node_modules/…) of the packages an install of this kind places. */
export function plannedPackages(root, kind) {
  const packages = readLock(root);
  const placed = (key) => key.includes('node_modules/') && !packages[key].link;
  if (kind === 'full') return Object.keys(packages).filter((k) => placed(k) && fitsPlatform(packages[k]));
  const workspaces = new Map();
  for (const [key, entry] of Object.entries(packages)) {
    if (entry.link && entry.resolved) workspaces.set(key.replace(/^node_modules\//, ''), entry.resolved);
  }
  // npm's workspace filter takes what the named workspaces (and the root) reach through any edge,
  // development ones included, then --omit=dev drops what the lockfile marks "dev"; the extras and
  // what they need come on top.
  const reach = (starts, withDev) => {
    const seen = new Set();
    const visit = (key) => {
      const entry = packages[key];
      if (entry === undefined || seen.has(key)) return;
      seen.add(key);
      const edges = { ...entry.dependencies, ...entry.optionalDependencies, ...(withDev ? entry.devDependencies : {}) };
      for (const [peer, spec] of Object.entries(entry.peerDependencies ?? {})) {
        if (!entry.peerDependenciesMeta?.[peer]?.optional) edges[peer] = spec;
      }
      for (const name of Object.keys(edges)) {
        const target = resolveIn(packages, key, name);
        if (!target) continue;
        if (packages[target].link) visit(packages[target].resolved);
        else if (fitsPlatform(packages[target])) visit(target);
      }
    };
    for (const key of starts) visit(key);
    return seen;
  };
  const kept = [...reach(['', ...START_WORKSPACES.map((n) => workspaces.get(n))], true)].filter(
    (k) => !packages[k].dev,
  );
  const extras = reach(
    START_EXTRAS.map((n) => `node_modules/${n}`),
    false,
  );
  const seen = new Set([...kept, ...extras]);
  return [...seen].filter(placed);
}

/** Packages present on disk (a directory with a package.json), workspace links not counted. */
export function installedCount(root) {
  let count = 0;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') || !e.isDirectory()) continue;
      if (e.name.startsWith('@')) {
        walk(join(dir, e.name));
        continue;
      }
      const pkg = join(dir, e.name);
      if (existsSync(join(pkg, 'package.json'))) count++;
      walk(join(pkg, 'node_modules'));
    }
  };
  walk(join(root, 'node_modules'));
  for (const group of ['packages', 'test-shims']) {
    if (!existsSync(join(root, group))) continue;
    for (const ws of readdirSync(join(root, group))) walk(join(root, group, ws, 'node_modules'));
  }
  return count;
}

/** The npm arguments of an install of this kind. */
export function installArgs(root, kind) {
  const common = ['install', '--no-audit', '--no-fund'];
  if (kind === 'full') return common;
  const packages = readLock(root);
  const extras = START_EXTRAS.filter((n) => packages[`node_modules/${n}`]?.version).map(
    (n) => `${n}@${packages[`node_modules/${n}`].version}`,
  );
  return [
    ...common,
    '--omit=dev',
    // the lockfile names every version: what the npm cache holds needs no registry round trip
    '--prefer-offline',
    // the extras are added for this install only: package.json and package-lock.json stay as they are
    '--no-save',
    // install scripts: see linkPinnedNode and startInstallScripts
    ...(SKIP_SCRIPTS ? ['--ignore-scripts'] : []),
    '--include-workspace-root',
    ...START_WORKSPACES.flatMap((w) => ['-w', w]),
    ...extras,
  ];
}

/**
 * Makes node_modules/node/bin/node, as the `node` package's preinstall would: that script runs a nested
 * `npm install node-<os>-<cpu>@<version>` and links its binary there. The start install skips it: the
 * binary is the one this script runs on (scripts/runtime.mjs fetched that same package), linked (or
 * copied). Does nothing when the binary is there.
 */
export function linkPinnedNode(root) {
  if (!SKIP_SCRIPTS) return;
  const bin = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(join(root, 'node_modules', 'node', 'package.json'))) return;
  if (!existsSync(bin)) {
    mkdirSync(dirname(bin), { recursive: true });
    try {
      linkSync(process.execPath, bin);
    } catch {
      copyFileSync(process.execPath, bin);
      chmodSync(bin, 0o755);
    }
  }
  // npm links node_modules/.bin/node only when its target exists: it did not yet
  const link = join(root, 'node_modules', '.bin', 'node');
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true });
    if (lstatSync(link, { throwIfNoEntry: false })) rmSync(link);
    symlinkSync('../node/bin/node', link);
  }
}

/** The other packages of the start install with install scripts (for `npm rebuild`). */
export function startInstallScripts(root) {
  if (!SKIP_SCRIPTS) return [];
  const packages = readLock(root);
  const names = plannedPackages(root, 'start')
    .filter((key) => packages[key].hasInstallScript)
    .map((key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length))
    .filter((name) => name !== 'node');
  return [...new Set(names)];
}

/**
 * Runs `npm <args>` in root with a progress line on stderr (packages on disk of the planned count,
 * elapsed seconds): rewritten in place on a terminal, a line every 10 s otherwise. Resolves with
 * npm's exit status.
 */
export function runInstall({ root, node, npmCli, kind, label }) {
  const planned = plannedCount(root, kind);
  const tty = process.stderr.isTTY;
  const started = Date.now();
  process.stderr.write(`[nodegate] ${label}…\n`);
  const child = spawn(node, [npmCli, ...installArgs(root, kind)], { cwd: root, stdio: 'inherit' });
  let lastLine = 0;
  const tick = () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    const have = Math.min(installedCount(root), planned);
    const what = have >= planned ? 'unpacked, npm is finishing' : 'unpacked';
    const line = `[nodegate]   ${have} of ~${planned} packages ${what} (${seconds} s)`;
    if (tty) process.stderr.write(`\r${line}\u001b[K`);
    else if (Date.now() - lastLine >= 10_000) {
      process.stderr.write(`${line}\n`);
      lastLine = Date.now();
    }
  };
  lastLine = Date.now();
  const timer = setInterval(tick, tty ? 1000 : 2000);
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      if (tty) process.stderr.write('\r\u001b[K');
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}
