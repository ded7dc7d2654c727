import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdLockFile } from './holdLockFile.js';

const dir = mkdtempSync(join(tmpdir(), 'hold-lock-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const inUse = (pid: number) => new Error(`in use by ${pid}`);

describe('holdLockFile', () => {
  it('holds the file with our pid, refuses a second take in this process, and releases once', () => {
    const file = join(dir, 'a.lock');
    const release = holdLockFile(file, inUse);
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    expect(() => holdLockFile(file, inUse)).toThrow(`in use by ${process.pid}`);
    release();
    expect(existsSync(file)).toBe(false);
    release(); // a second release does nothing
    const again = holdLockFile(file, inUse);
    again();
  });

  it('takes over a lock left by a process that is gone, or by an earlier process with our pid', () => {
    const file = join(dir, 'b.lock');
    writeFileSync(file, '999999999'); // no such process
    holdLockFile(file, inUse)();
    writeFileSync(file, String(process.pid)); // not held by this process: stale
    const release = holdLockFile(file, inUse);
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('refuses a lock held by a running process, naming it', () => {
    const file = join(dir, 'c.lock');
    writeFileSync(file, String(process.ppid)); // our parent runs
    expect(() => holdLockFile(file, inUse)).toThrow(`in use by ${process.ppid}`);
    expect(readFileSync(file, 'utf8')).toBe(String(process.ppid));
  });
});
