#!/usr/bin/env node
// Makes a clone ready for what the npm script after it runs. Uses only Node built-ins, because it runs
// before any install.
//
//   node scripts/ensure.mjs            prestart: what `npm start` needs, as quickly as possible
//   node scripts/ensure.mjs --all      pretest, prefuzz: everything the test suite needs
//   node scripts/ensure.mjs --dev      prebench, presnap: every workspace's development tools, start's builds
//   node scripts/ensure.mjs --install  prebuild, pretypecheck, prelint, preformat: the full install only
//
// On a fresh clone, `npm start` installs only what the gateway runs and builds (scripts/install.mjs,
// "start"), builds the gateway without a type check (scripts/transpile.mjs) and the dashboard with
// Vite alone, side by side; when the gateway imports a package that install lacks
// (scripts/startImports.mjs), it installs everything instead. Every other mode installs everything
// (`npm install`, as `npm test` always did) and, from then on, builds with `tsc -b` (incremental).
// `--all` also type-checks the dashboard (once per dashboard build) and prepares the snap. What was
// done is kept in node_modules/.nodegate-ensure.json, so `npm test` after `npm start` completes the rest.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkPinnedNode, runInstall, startInstallScripts } from './install.mjs';
import { missingFromStartInstall } from './startImports.mjs';
import { ensureRuntime, npmCli } from './runtime.mjs';

// everything below runs on the pinned Node.js runtime (fetched first on a fresh clone)
ensureRuntime();

const started = Date.now();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const hiddenLock = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
const stateFile = join(root, 'node_modules', '.nodegate-ensure.json');
const dashboard = join(root, 'packages', 'dashboard');
const dashboardIndex = join(dashboard, 'dist', 'index.html');
const all = process.argv.includes('--all');
const installOnly = process.argv.includes('--install');
const wantFull = all || installOnly || process.argv.includes('--dev');

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : undefined);

/**
 * What was done: `install` ("start", "full", or "none" while one runs), `rebuild` (packages whose
 * install scripts are still to run) and `dashboardChecked` (the mtime of the dashboard's
 * dist/index.html when its type check passed). A node_modules without the file was installed in full
 * (by npm itself, or by this script before it kept the file), with a type-checked dashboard.
 */
function readState() {
  if (existsSync(stateFile)) return JSON.parse(readFileSync(stateFile, 'utf8'));
  if (existsSync(hiddenLock)) return { install: 'full', dashboardChecked: mtime(dashboardIndex) };
  return {};
}
const state = readState();
const saveState = () => writeFileSync(stateFile, `${JSON.stringify(state)}\n`);

function fail(label, status) {
  process.stderr.write(`[nodegate] ${label} failed (exit ${status})\n`);
  process.exit(typeof status === 'number' && status > 0 ? status : 1);
}

/** Runs a command with the terminal; resolves with a failure's description, or undefined when it succeeded. */
function start(cmd, args, label, cwd = root) {
  process.stderr.write(`[nodegate] ${label}…\n`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: 'inherit' });
    child.on('error', (err) => resolve({ label, status: err.message }));
    child.on('exit', (code, signal) => resolve(code === 0 ? undefined : { label, status: code ?? signal }));
  });
}

/** Runs commands side by side; when one fails, exits (after the others are done) with its status. */
async function runAll(commands) {
  const failed = (await Promise.all(commands)).find(Boolean);
  if (failed) fail(failed.label, failed.status);
}

// 1. npm packages: missing, older than the lockfile, or only the start install when more is wanted
const lockChanged = !existsSync(hiddenLock) || (existsSync(lock) && statSync(lock).mtimeMs > mtime(hiddenLock));
let kind = wantFull || state.install === 'full' ? 'full' : 'start';
if (lockChanged || (state.install !== 'full' && state.install !== kind)) {
  let missing = [];
  try {
    if (kind === 'start') missing = missingFromStartInstall(root);
  } catch (err) {
    process.stderr.write(`[nodegate] could not check the gateway's imports (${err.message}): installing everything\n`);
    kind = 'full';
  }
  if (missing.length > 0) {
    // a run-time import of a development-only package: npm start installs everything rather than crash
    process.stderr.write(
      `[nodegate] the gateway imports packages the start install lacks (declare them in dependencies, or add them to START_EXTRAS in scripts/install.mjs):\n${missing.map((m) => `[nodegate]   ${m}\n`).join('')}`,
    );
    kind = 'full';
  }
  // an install that does not finish leaves "none": the next run installs again
  mkdirSync(dirname(stateFile), { recursive: true });
  const pending = state.rebuild ?? [];
  Object.assign(state, { install: 'none' });
  saveState();
  const what =
    kind === 'full'
      ? 'installing npm packages'
      : 'installing what `npm start` needs (npm test adds the development tools)';
  const status = await runInstall({
    root,
    node: process.execPath,
    npmCli: npmCli(),
    kind,
    label: `${what} on Node.js ${process.versions.node}`,
  });
  if (status !== 0) fail('npm install', status);
  linkPinnedNode(root);
  state.install = kind;
  // the start install skips install scripts: the others run below, alongside the builds
  state.rebuild = kind === 'start' ? startInstallScripts(root) : pending;
  saveState();
}
if (installOnly) process.exit(0);

// 2. side by side: the start install's remaining install scripts, the workspaces' build, and the
// dashboard's (a Vite build the gateway serves)
const builds = [];
if (state.rebuild?.length > 0) {
  builds.push(
    start(
      process.execPath,
      [npmCli(), 'rebuild', ...state.rebuild],
      `running the install scripts of ${state.rebuild.join(', ')}`,
    ).then((failed) => {
      if (!failed) {
        state.rebuild = [];
        saveState();
      }
      return failed;
    }),
  );
}
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (existsSync(tsc)) {
  builds.push(start(process.execPath, [tsc, '-b'], 'building (tsc -b)'));
} else {
  builds.push(
    start(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', join(root, 'scripts', 'transpile.mjs')],
      'building the gateway without a type check (npm test type-checks)',
    ),
  );
}
if (existsSync(join(dashboard, 'package.json'))) {
  const newest = (path) => {
    const info = statSync(path);
    if (!info.isDirectory()) return info.mtimeMs;
    return Math.max(info.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
  };
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json']
    .map((f) => join(dashboard, f))
    .filter((f) => existsSync(f));
  const stale = !existsSync(dashboardIndex) || Math.max(...sources.map(newest)) > mtime(dashboardIndex);
  if (all && (stale || state.dashboardChecked !== mtime(dashboardIndex))) {
    builds.push(
      start(
        process.execPath,
        [npmCli(), 'run', 'build', '--silent', '-w', '@nodegate/dashboard', '--', '--logLevel', 'warn'],
        'building the dashboard (typecheck + vite build in packages/dashboard)',
      ).then((failed) => {
        if (!failed) {
          state.dashboardChecked = mtime(dashboardIndex);
          saveState();
        }
        return failed;
      }),
    );
  } else if (stale) {
    builds.push(
      start(
        process.execPath,
        [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
        'building the dashboard (vite build in packages/dashboard; npm test type-checks it)',
        dashboard,
      ),
    );
  } else {
    process.stderr.write('[nodegate] dashboard is up to date\n');
  }
}
await runAll(builds);

// 3. packages built by their own toolchain (the snap: typecheck + mm-snap build), for the test suite only
if (all) {
  for (const hook of ['packages/starknet-snap/scripts/prepare.mjs']) {
    if (existsSync(join(root, hook))) {
      await runAll([start(process.execPath, [join(root, hook)], `preparing ${hook.split('/')[1]}`)]);
    }
  }
}
process.stderr.write(`[nodegate] prepared in ${Math.round((Date.now() - started) / 1000)} s\n`);
