import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../log/createLogger.js';
import { makeTreePrivate } from './makeTreePrivate.js';
import { prepareDataDir } from './prepareDataDir.js';
import { walkEntries } from './walkEntries.js';

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-datadir-'));
  made.push(dir);
  return dir;
}
function recordingLog(): Logger & { warnings: Array<{ msg: string; fields?: Record<string, unknown> }> } {
  const warnings: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  const log = {
    warnings,
    error: () => {},
    warn: (msg: string, fields?: Record<string, unknown>) => void warnings.push({ msg, ...(fields ? { fields } : {}) }),
    info: () => {},
    debug: () => {},
  };
  return log as unknown as Logger & { warnings: typeof warnings };
}
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('prepareDataDir', () => {
  it('creates a missing directory 0700 (parents too) and sets the umask to 077', async () => {
    const dataDir = join(await tempDir(), 'a', 'b');
    const log = recordingLog();
    expect(await prepareDataDir(dataDir, log)).toEqual({ readable: 0, complete: true });
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(join(dataDir, '..'))).toBe(0o700);
    await writeFile(join(dataDir, 'f'), 'x');
    await mkdir(join(dataDir, 'd'));
    expect(await modeOf(join(dataDir, 'f'))).toBe(0o600);
    expect(await modeOf(join(dataDir, 'd'))).toBe(0o700);
    expect(log.warnings).toEqual([]);
  });

  it('refuses group- or other-writable entries at any depth, naming at most three and counting all', async () => {
    const dataDir = await tempDir();
    await mkdir(join(dataDir, 'x', 'y'), { recursive: true });
    for (const name of ['1', '2', '3', '4']) {
      await writeFile(join(dataDir, 'x', 'y', name), name);
      await chmod(join(dataDir, 'x', 'y', name), 0o620);
    }
    await expect(prepareDataDir(dataDir, recordingLog())).rejects.toThrow(
      /not private: 4 entries can be written by other users \(x\/y\/\d 0620, x\/y\/\d 0620, x\/y\/\d 0620, …\)/,
    );
  });

  it('warns about readable entries; a symbolic link is neither followed nor judged by its own mode', async () => {
    const dataDir = await tempDir();
    const outside = await tempDir();
    await chmod(outside, 0o777);
    await writeFile(join(dataDir, 'readable'), 'r');
    await chmod(join(dataDir, 'readable'), 0o640);
    await symlink(outside, join(dataDir, 'link'));
    const log = recordingLog();
    expect(await prepareDataDir(dataDir, log)).toEqual({ readable: 1, complete: true });
    expect(log.warnings).toEqual([
      {
        msg: 'the data directory can be read by other users: make it private (chmod -R go-rwx)',
        fields: { dataDir, entries: 1, first: ['readable 0640'] },
      },
    ]);
  });

  it('a data directory that is a file is refused', async () => {
    const file = join(await tempDir(), 'file');
    await writeFile(file, '');
    await expect(prepareDataDir(file, recordingLog())).rejects.toThrow();
  });
});

describe('makeTreePrivate and walkEntries', () => {
  it('takes group and other permissions off every entry, keeping the owner bits, and counts them', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'db', 'base'), { recursive: true });
    await writeFile(join(dir, 'db', 'base', 'rel'), 'x');
    await writeFile(join(dir, 'db', 'script'), 'x');
    await chmod(join(dir, 'db', 'base', 'rel'), 0o666);
    await chmod(join(dir, 'db', 'script'), 0o755);
    await chmod(join(dir, 'db', 'base'), 0o777);
    await chmod(join(dir, 'db'), 0o755);
    expect(await makeTreePrivate(join(dir, 'db'))).toBe(4);
    expect(await modeOf(join(dir, 'db'))).toBe(0o700);
    expect(await modeOf(join(dir, 'db', 'base'))).toBe(0o700);
    expect(await modeOf(join(dir, 'db', 'base', 'rel'))).toBe(0o600);
    expect(await modeOf(join(dir, 'db', 'script'))).toBe(0o700);
    expect(await makeTreePrivate(join(dir, 'db'))).toBe(0);
  });

  it('walkEntries stops at its limit and says so', async () => {
    const dir = await tempDir();
    for (let i = 0; i < 5; i++) await writeFile(join(dir, String(i)), '');
    const seen: string[] = [];
    expect(await walkEntries(dir, (p) => void seen.push(p), 3)).toBe(false);
    expect(seen).toHaveLength(3);
    expect(await walkEntries(dir, () => {}, 5)).toBe(true);
  });
});
