import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = join(PACKAGE_DIR, '..', '..');

/** What `nodegate start --ready-file` writes. */
export interface Ready {
  url: string;
  networks: Record<string, { family: string; http: string; ws: string }>;
  ipfs?: string;
  devKey?: { key: string; secret: string };
  admin: { url: string; token: string };
  dashboard: { url: string; signInUrl: string };
}

export interface StartedGateway {
  ready: Ready;
  /** Its data directory (removed by `stop()`). */
  dataDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** Builds the dashboard when its dist is missing (the root pretest normally does it). */
export function ensureDashboardBuilt(): void {
  if (existsSync(join(PACKAGE_DIR, 'dist', 'index.html'))) return;
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
    cwd: PACKAGE_DIR,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('the dashboard build failed');
}

/** Starts the real gateway (its built CLI, embedded defaults) in a fresh data directory. */
export async function startGateway(): Promise<StartedGateway> {
  const cli = join(REPO_ROOT, 'packages', 'gateway', 'dist', 'cli', 'main.js');
  if (!existsSync(cli) || statSync(cli).size === 0) throw new Error(`build the gateway first (npx tsc -b): ${cli}`);
  const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-dashboard-'));
  const readyFile = join(dataDir, 'ready.json');
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, 'start', '--listen', '127.0.0.1:0', '--data-dir', dataDir, '--ready-file', readyFile],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const end = Date.now() + 120_000;
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null) throw new Error(`the gateway exited: ${out}`);
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`no ready file: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const ready = JSON.parse(await readFile(readyFile, 'utf8')) as Ready;
  return {
    ready,
    dataDir,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
