import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../log/createLogger.js';
import { stopChild } from './startAnvil.js';
import { type StartedBackend, type SupervisedBackend, superviseBackend } from './superviseBackend.js';

// The supervisor's view of a stop, with real processes: a small HTTP server in a node child that
// stops cleanly (exit 0) on SIGINT and SIGTERM, as the embedded backends do.
const SERVER = `
const server = require('node:http').createServer((_q, s) => s.end('ok'));
server.listen(Number(process.argv[1]), '127.0.0.1', () => console.log(String(server.address().port)));
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => server.close(() => process.exit(0)));`;

async function startServer(port: number): Promise<StartedBackend> {
  const child = spawn(process.execPath, ['-e', SERVER, String(port)], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const bound = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (c: Buffer) => resolve(Number(c.toString().trim())));
    child.once('exit', () => reject(new Error('the server exited before it listened')));
  });
  return {
    name: 'server',
    http: `http://127.0.0.1:${bound}`,
    pid: child.pid!,
    port: bound,
    exited,
    stop: () => stopChild(child, 2_000),
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-supervise-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function supervised(name: string, stopGraceMs?: number) {
  const lines: string[] = [];
  const backend = await superviseBackend({
    name,
    start: startServer,
    pidFile: join(dir, `${name}.pid`),
    marker: name,
    log: createLogger('warn', (l) => lines.push(l)),
    initialDelayMs: 50,
    ...(stopGraceMs === undefined ? {} : { stopGraceMs }),
  });
  const warnings = () => lines.map((l) => JSON.parse(l) as { msg: string });
  return { backend, warnings };
}
const kill = (b: SupervisedBackend, signal: NodeJS.Signals) => process.kill(b.pid()!, signal);

describe('superviseBackend: a stop is not a crash', () => {
  it('Ctrl-C reaching the backend first: an exit that looks like a stop waits for the gateway’s stop, and is quiet', async () => {
    const { backend, warnings } = await supervised('ctrl-c', 1_000);
    const pid = backend.pid();
    // the terminal's SIGINT reaches the backend; the gateway's own handler runs a moment later
    kill(backend, 'SIGINT');
    await sleep(200);
    backend.expectStop();
    await backend.stop();
    await sleep(300);
    expect(warnings()).toEqual([]);
    expect(backend.restarts()).toBe(0);
    expect(backend.pid()).toBe(pid);
  });

  it('after expectStop() (the gateway got SIGINT/SIGTERM), any exit is expected: no warning, no restart', async () => {
    const { backend, warnings } = await supervised('expected', 1_000);
    backend.expectStop();
    kill(backend, 'SIGKILL');
    await sleep(400);
    expect(warnings()).toEqual([]);
    expect(backend.restarts()).toBe(0);
    await backend.stop();
  });

  it('a backend stopped by someone else while the gateway runs is restarted, after the grace, with a warning', async () => {
    const { backend, warnings } = await supervised('killed', 300);
    const before = backend.pid();
    const started = Date.now();
    kill(backend, 'SIGTERM');
    // the restart is counted, then its pid file written, then the warning logged
    for (let i = 0; i < 100 && (backend.restarts() === 0 || warnings().length < 2); i++) await sleep(50);
    expect(backend.restarts()).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(backend.pid()).not.toBe(before);
    expect(warnings().map((w) => w.msg)).toEqual([
      'embedded backend exited; restarting it',
      'embedded backend restarted',
    ]);
    // the same address after the restart
    expect(await (await fetch(backend.http)).text()).toBe('ok');
    await backend.stop();
  });

  it('a crash (SIGKILL) restarts at once, without waiting for a stop', async () => {
    const { backend, warnings } = await supervised('crash', 5_000);
    const started = Date.now();
    kill(backend, 'SIGKILL');
    for (let i = 0; i < 100 && backend.restarts() === 0; i++) await sleep(50);
    expect(backend.restarts()).toBe(1);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(warnings()[0]).toMatchObject({ msg: 'embedded backend exited; restarting it', signal: 'SIGKILL' });
    await backend.stop();
  });
});
