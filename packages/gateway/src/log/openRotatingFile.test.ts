import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRotatingFile } from './openRotatingFile.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-rotate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const line = (i: number) => `${JSON.stringify({ msg: 'request', i, pad: 'x'.repeat(60) })}\n`;
const linesOf = async (path: string) =>
  existsSync(path) ? (await readFile(path, 'utf8')).split('\n').filter(Boolean) : [];

describe('openRotatingFile', () => {
  it('appends whole lines, starts a new file past maxBytes, keeps `keep` old ones and drops the oldest', async () => {
    const path = join(dir, 'logs', 'access.log');
    const file = openRotatingFile(path, { maxBytes: 1_000, keep: 2 });
    for (let i = 0; i < 60; i++) {
      file.write(line(i));
      // let some writes reach the disk between rotations, as a running gateway does
      if (i % 7 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await file.close();
    const current = await linesOf(path);
    const one = await linesOf(`${path}.1`);
    const two = await linesOf(`${path}.2`);
    expect(existsSync(`${path}.3`)).toBe(false);
    // every line whole, newest last, the files in order, and nothing older than three files' worth
    const all = [...two, ...one, ...current].map((l) => JSON.parse(l).i as number);
    expect(all.at(-1)).toBe(59);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(all.length).toBeLessThan(60);
    expect(all.length).toBeGreaterThan(20);
    for (const p of [path, `${path}.1`, `${path}.2`]) {
      const size = (await stat(p)).size;
      expect(size).toBeLessThanOrEqual(1_000 + 4 * line(0).length); // a few lines in flight may follow a rotation
      expect((await stat(p)).mode & 0o777).toBe(0o600);
    }
    expect((await stat(join(dir, 'logs'))).mode & 0o777).toBe(0o700);
    expect(file.dropped()).toBe(0);
  });

  it('appends to what the file already holds, counting it toward maxBytes', async () => {
    const path = join(dir, 'kept.log');
    await writeFile(path, line(-1).repeat(12), { mode: 0o600 }); // ~900 bytes already there
    const file = openRotatingFile(path, { maxBytes: 1_000, keep: 1 });
    file.write(line(0));
    file.write(line(1));
    await file.close();
    expect((await linesOf(`${path}.1`)).length).toBe(12);
    expect((await linesOf(path)).map((l) => JSON.parse(l).i)).toEqual([0, 1]);
  });

  it('with keep 0 starts over in one file; a write after close is dropped, not thrown', async () => {
    const path = join(dir, 'single.log');
    const file = openRotatingFile(path, { maxBytes: 300, keep: 0 });
    for (let i = 0; i < 10; i++) {
      file.write(line(i));
      await new Promise((r) => setTimeout(r, 5));
    }
    await file.close();
    expect(existsSync(`${path}.1`)).toBe(false);
    const left = (await linesOf(path)).map((l) => JSON.parse(l).i);
    expect(left.at(-1)).toBe(9);
    expect(left.length).toBeLessThan(10);
    file.write(line(10));
    expect(file.dropped()).toBe(1);
  });

  it('reports a file it cannot write once, and never throws', async () => {
    const errors: Error[] = [];
    // a directory where the file should be
    const path = join(dir, 'is-a-dir');
    await rm(path, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(path));
    const file = openRotatingFile(path, { maxBytes: 1_000, keep: 1, onError: (e) => errors.push(e) });
    file.write(line(0));
    file.write(line(1));
    for (let i = 0; i < 500 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await file.close();
    expect(errors).toHaveLength(1);
    expect((errors[0] as NodeJS.ErrnoException).code).toBe('EISDIR');
    // the directory is reported, never rotated away, however much is written at it
    for (let i = 0; i < 100; i++) file.write(line(i));
    expect(existsSync(`${path}.1`)).toBe(false);
    expect((await stat(path)).isDirectory()).toBe(true);
  });

  it('a process whose file never opened exits cleanly (nothing left to flush at exit)', async () => {
    const path = join(dir, 'also-a-dir');
    await import('node:fs/promises').then((fs) => fs.mkdir(path));
    const module = new URL('./openRotatingFile.ts', import.meta.url).pathname;
    const code = `const { openRotatingFile } = await import(${JSON.stringify(module)});
      let failed = false;
      openRotatingFile(${JSON.stringify(path)}, { maxBytes: 1000, keep: 1, onError: () => { failed = true; } }).write('x\\n');
      while (!failed) await new Promise((r) => setTimeout(r, 10));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const [status] = (await once(child, 'exit')) as [number | null];
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });
});
