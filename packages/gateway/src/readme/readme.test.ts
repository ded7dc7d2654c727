import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { checkCommandOutput } from './checkCommandOutput.js';
import { extractFencedBlocks, type FencedBlock } from './extractFencedBlocks.js';
import { matchStartupSample } from './matchStartupSample.js';
import { parseShellBlock, type ShellCommand } from './parseShellBlock.js';
import { runShellCommands } from './runShellCommands.js';

// The root README run as a newcomer runs it: its own blocks (read from README.md, not a copy), in
// order, in one shell, against a fresh `nodegate start` on the embedded defaults. The gateway runs
// in a temporary directory that stands for the clone (README.md and node_modules in it, the data
// directory `.nodegate/` made by the start), on 127.0.0.1:8550 when that port is free (else the
// README's one literal `127.0.0.1:8550` is rewritten to the port it got).

const ROOT = new URL('../../../../', import.meta.url).pathname;
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const README_PORT = 8550;

/** Blocks a test cannot run, by their first line, and why. Every other block is run or compared. */
const NOT_RUN: ReadonlyArray<{ firstLine: string; reason: string }> = [
  {
    firstLine: 'npm start',
    reason:
      '`npm start` installs, builds, then runs `nodegate start`: this test runs that same built CLI itself ' +
      '(in a temporary directory), and `npm test` runs the whole suite, this test included',
  },
];

/**
 * `npm start -- ARGS` in a later block (a restart with other flags, such as HTTPS): in the README's
 * shell, `npm start` asks the test to stop its gateway and start the built CLI again with ARGS in
 * the same directory, and prints what that start printed (other npm commands run as they are).
 */
const NPM_START = `npm() {
  if [ "$1" != start ]; then command npm "$@"; return; fi
  shift; [ "$1" = -- ] && shift
  rm -f .readme-restart.done
  printf '%s\\n' "$@" > .readme-restart.request
  while [ ! -e .readme-restart.done ]; do sleep 0.1; done
  tail -n +2 .readme-restart.done
  return "$(head -n 1 .readme-restart.done)"
}`;

/** Where the README's JavaScript files go: the file a block's first line names (`// try.mjs …`). */
function jsFileOf(block: FencedBlock): string {
  const m = /^\/\/\s*([\w.-]+\.m?js)\b/.exec(block.firstLine);
  if (!m) throw new Error(`README line ${block.line}: a js block starts with "// <file>.mjs" (where to save it)`);
  return m[1]!;
}

async function freePort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

let dir: string;
let gateway: ChildProcess | undefined;
/** What the first start printed on stdout (the README's sample is of it). */
let firstPrinted = '';
let port = README_PORT;

/** Starts `nodegate start ARGS` (the built CLI, as `npm start` runs it) in the test's directory; resolves once ready. */
async function startCli(args: readonly string[]): Promise<{ printed: string; error?: string }> {
  const readyFile = join(dir, 'ready.json');
  await rm(readyFile, { force: true });
  const listen = port === README_PORT || args.includes('--listen') ? [] : ['--listen', `127.0.0.1:${port}`];
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=8', CLI, 'start', ...args, ...listen, '--ready-file', readyFile],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  gateway = child;
  let printed = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => {
    printed += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  for (let i = 0; i < 1200 && !existsSync(readyFile); i++) {
    if (child.exitCode !== null) return { printed, error: `nodegate start exited with ${child.exitCode}: ${stderr}` };
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!existsSync(readyFile)) return { printed, error: `nodegate start was not ready in 120 s: ${stderr}` };
  return { printed };
}

/** Stops the running gateway (SIGTERM, as Ctrl-C) and waits for it to exit. */
async function stopCli(): Promise<void> {
  const child = gateway;
  gateway = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}
const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
const blocks = extractFencedBlocks(readme);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-readme-'));
  await copyFile(join(ROOT, 'README.md'), join(dir, 'README.md'));
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  if (!(await freePort(README_PORT))) {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    port = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
  }
  const first = await startCli([]);
  if (first.error) throw new Error(`${first.error}${first.printed}`);
  firstPrinted = first.printed;
}, 150_000);

afterAll(async () => {
  await stopCli();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The README's address as this run's (the one literal `127.0.0.1:8550`). */
const here = (text: string) => text.replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${port}`);

describe('README.md, run as written on a fresh `nodegate start`', () => {
  it('runs every shell and JavaScript block, and the startup output is the one it shows', async () => {
    const notRun = blocks.filter((b) => NOT_RUN.some((n) => b.firstLine.startsWith(n.firstLine)));
    const samples = blocks.filter((b) => b.lang === '' && b.firstLine.startsWith('nodegate: '));
    const shell = blocks.filter((b) => (b.lang === 'sh' || b.lang === 'bash') && !notRun.includes(b));
    const js = blocks.filter((b) => b.lang === 'js' || b.lang === 'javascript');
    const unknown = blocks.filter((b) => ![...notRun, ...samples, ...shell, ...js].includes(b));
    // a new kind of block is run, compared, or listed in NOT_RUN with its reason
    expect(unknown.map((b) => `line ${b.line}: ${b.firstLine}`)).toEqual([]);
    expect(shell.length).toBeGreaterThan(0);

    // the JavaScript files the README has the user save, before its commands run them
    for (const b of js) await writeFile(join(dir, jsFileOf(b)), here(b.body));
    const commands: ShellCommand[] = shell
      .flatMap((b) => parseShellBlock(b))
      .map((c) => ({ ...c, text: here(c.text), expect: c.expect.map(here) }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // the pinned runtime first, as npm scripts have it; npx never fetches from the registry here
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
    };
    // what the README defines, it defines itself
    for (const name of ['KEY', 'SECRET', 'ETH', 'STK', 'IPFS']) delete env[name];
    // the README's `npm start -- ARGS`: the gateway restarted with ARGS (see NPM_START)
    let restarts = 0;
    let restarting = false;
    const watcher = setInterval(async () => {
      const request = join(dir, '.readme-restart.request');
      if (restarting || !existsSync(request)) return;
      restarting = true;
      let done: string;
      try {
        const args = (await readFile(request, 'utf8')).split('\n').filter(Boolean);
        await rm(request);
        await stopCli();
        const started = await startCli(args.map(here));
        restarts += 1;
        done = `${started.error ? 1 : 0}\n${started.printed}${started.error ?? ''}`;
      } catch (err) {
        done = `1\nthe test could not restart the gateway: ${(err as Error).message}`;
      }
      await writeFile(join(dir, '.readme-restart.tmp'), done);
      await rename(join(dir, '.readme-restart.tmp'), join(dir, '.readme-restart.done'));
      restarting = false;
    }, 100);
    const runs = await runShellCommands(commands, { cwd: dir, env, timeoutMs: 170_000, preamble: NPM_START }).finally(
      () => clearInterval(watcher),
    );
    const failures = commands.flatMap((c, i) => {
      const run = runs[i];
      const problem = run
        ? checkCommandOutput(c, run.output, run.status)
        : 'was not reached (the shell exited or timed out)';
      return problem
        ? [`README line ${c.line}: ${c.text.split('\n')[0]}\n  ${problem}\n  output: ${run?.output.slice(0, 600)}`]
        : [];
    });
    expect(failures).toEqual([]);

    for (const s of samples) {
      expect(
        matchStartupSample(here(s.body), firstPrinted),
        `README line ${s.line}: the sample startup output`,
      ).toBeUndefined();
    }
    const ran = shell.length + js.length + samples.length;
    console.log(
      `README.md: ${ran} blocks run or compared (${shell.length} shell blocks, ${commands.length} commands; ` +
        `${js.length} JavaScript; ${samples.length} startup sample) on 127.0.0.1:${port}, restarted ${restarts} time(s) by the README's npm start; not run: ` +
        notRun
          .map((b) => `"${b.firstLine}" (${NOT_RUN.find((n) => b.firstLine.startsWith(n.firstLine))!.reason})`)
          .join('; '),
    );
  }, 240_000);
});

describe('packages/gateway/README.md', () => {
  it('shows gateway configs that the config check accepts', async () => {
    const text = await readFile(join(ROOT, 'packages/gateway/README.md'), 'utf8');
    const configs = extractFencedBlocks(text).filter(
      (b) => b.lang === 'yaml' && /^(networks|ipfs|listen):/m.test(b.body),
    );
    expect(configs.length).toBeGreaterThan(0);
    for (const b of configs) expect(() => validateConfig(parseYaml(b.body)), `line ${b.line}`).not.toThrow();
  });
});
