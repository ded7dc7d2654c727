import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The gateway as users run it: the built CLI (npm test builds before testing).
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;

/** What `nodegate start --ready-file` writes. */
export interface Ready {
  /** The gateway's base URL (every listener's port). */
  url: string;
  networks: Record<string, { family: string; http: string; ws: string }>;
  devKey: { key: string; secret: string } | null;
  admin: { url: string; token: string };
  /** Gateway processes serving (`--workers`): 1, or the primary's workers. */
  workers: number;
  /** The process that takes the signals (the primary with more than one worker). */
  pid: number;
}

/** A gateway running in a process of its own. */
export interface SpawnedGateway {
  readonly child: ChildProcess;
  readonly ready: Ready;
  /** What it wrote to stderr so far (JSON logs go to stdout: see `output()`). */
  stderr(): string;
  /** Everything it wrote so far, stdout and stderr: its JSON log and, with `log.access`, its access log. */
  output(): string;
  /** The JSON lines of `output()`, parsed. */
  logLines(): Record<string, any>[];
  /** SIGTERM, wait for the exit, remove the data directory. */
  stop(): Promise<void>;
}

/**
 * Starts `nodegate start` in its own process (with `npm start`'s V8 flags) on a config made of
 * `config` plus a free loopback port and a temporary data directory, and waits for its ready
 * file: for tests that measure the gateway's latency or memory apart from the test's own, and
 * tests of the gateway as users run it (its log lines: `log.format` is `json` unless `config.log`
 * says otherwise, so they are JSON lines on stdout).
 *
 * @example
 * const gw = await spawnGateway({ devKey: true, log: { access: true }, networks: [...] });
 * gw.logLines().filter((l) => l.msg === 'request');
 * await gw.stop();
 */
export async function spawnGateway(
  config: Record<string, unknown>,
  /** More Node.js flags, after `npm start`'s (e.g. `--import` of a hook that watches the process). */
  nodeFlags: readonly string[] = [],
): Promise<SpawnedGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-spawned-'));
  const configFile = join(dir, 'config.json');
  const log = { format: 'json', ...((config.log as Record<string, unknown> | undefined) ?? {}) };
  await writeFile(configFile, JSON.stringify({ listen: '127.0.0.1:0', dataDir: join(dir, 'data'), ...config, log }));
  const readyFile = join(dir, 'ready.json');
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=8', ...nodeFlags, CLI, 'start', '--config', configFile, '--ready-file', readyFile],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => {
    stdout += c;
  });
  child.stderr!.on('data', (c) => {
    stderr += c;
  });
  for (let i = 0; i < 600 && !existsSync(readyFile); i++) {
    if (child.exitCode !== null) {
      throw new Error(`the gateway exited with ${child.exitCode} before it was ready: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const ready = JSON.parse(await readFile(readyFile, 'utf8')) as Ready;
  return {
    child,
    ready,
    stderr: () => stderr,
    output: () => `${stdout}\n${stderr}`,
    logLines: () =>
      `${stdout}\n${stderr}`
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, any>),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
