import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pseudoRandomChunks } from './testing/testData.js';

const here = dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;
const SIZE = 512 * MiB;

/** Starts the node in its own process (as the gateway runs it), so its memory can be measured. */
async function startChild(dir: string): Promise<{ child: ChildProcess; api: string }> {
  const ready = join(dir, `ready-${Date.now()}.json`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, 'cli.ts'),
      '--listen',
      '127.0.0.1:0',
      '--repo',
      join(dir, 'repo'),
      '--ready-file',
      ready,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deadline = Date.now() + 20_000;
  while (!(await stat(ready).catch(() => undefined))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('ipfs-node did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, api: (JSON.parse(await readFile(ready, 'utf8')) as { api: string }).api };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** Peak resident memory of a process so far, in MiB (Linux /proc). */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

describe('streaming with backpressure (node in its own process)', () => {
  let dir: string;
  let cid: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ipfs-node-backpressure-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`a ${SIZE / MiB} MiB upload is never held in memory whole`, { timeout: 120_000 }, async () => {
    const { child, api } = await startChild(dir);
    try {
      const before = await peakRss(child.pid!);
      cid = await new Promise<string>((resolve, reject) => {
        const boundary = 'backpressure';
        const req = request(
          `${api}/api/v0/add`,
          { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => {
              text += c.toString();
            });
            res.on('end', () => resolve((JSON.parse(text) as { Hash: string }).Hash));
          },
        );
        req.on('error', reject);
        req.write(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        );
        const chunks = pseudoRandomChunks(SIZE, 'backpressure');
        const pump = () => {
          for (let next = chunks.next(); !next.done; next = chunks.next()) {
            if (!req.write(next.value)) {
              req.once('drain', pump);
              return;
            }
          }
          req.end(`\r\n--${boundary}--\r\n`);
        };
        pump();
      });
      const growth = (await peakRss(child.pid!)) - before;
      // whole-upload buffering would add at least SIZE; the importer legitimately holds up to
      // 174 leaf blocks (43.5 MiB) before building their parent node, plus GC slack
      expect(growth).toBeLessThan(320);
    } finally {
      await stopChild(child);
    }
  });

  it('a download reads blocks only as fast as the client takes them', { timeout: 120_000 }, async () => {
    const { child, api } = await startChild(dir);
    try {
      const before = await peakRss(child.pid!);
      let duringPause = 0;
      const received = await new Promise<number>((resolve, reject) => {
        const req = request(`${api}/api/v0/cat?arg=${cid}`, { method: 'POST' }, (res) => {
          let n = 0;
          res.once('data', () => {
            res.pause();
            setTimeout(async () => {
              duringPause = (await peakRss(child.pid!)) - before;
              res.resume();
            }, 1500);
          });
          res.on('data', (c: Buffer) => {
            n += c.byteLength;
          });
          res.on('end', () => resolve(n));
          res.on('error', reject);
        });
        req.end();
      });
      expect(received).toBe(SIZE);
      // while the client was not reading, the node did not run ahead through the file
      expect(duringPause).toBeLessThan(64);
    } finally {
      await stopChild(child);
    }
  });
});
