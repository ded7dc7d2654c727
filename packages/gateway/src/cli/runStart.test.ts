import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
// The CLI as users run it: the built bin (npm test builds before testing).
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-start-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI; resolves with its exit code and output (it is expected to fail). */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [CLI, ...args], { timeout: 30_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('nodegate start --workers', () => {
  it('more than one worker on the embedded default (no redis) is refused before anything starts, naming the flag and why', async () => {
    const dataDir = join(dir, 'embedded');
    const r = await cli(['start', '--workers', '2', '--listen', '127.0.0.1:0', '--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'config error: --workers: more than one worker needs redis (limits, eth filters, sign-in counts and key changes are shared through it)',
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it("a config file's workers: 2 without redis is refused by config check and by start", async () => {
    const file = join(dir, 'two.yaml');
    await writeFile(
      file,
      'workers: 2\nnetworks:\n  - { name: mainnet, family: eth, pathPrefix: /mainnet, upstreams: [{ name: a, http: "http://127.0.0.1:9" }] }\n',
    );
    const check = await cli(['config', 'check', file]);
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/config error: workers: more than one worker needs redis/);
    const start = await cli(['start', '--config', file, '--data-dir', join(dir, 'file')]);
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/config error: workers: more than one worker needs redis/);
  });

  it('a --workers that is not a count is refused', async () => {
    const r = await cli(['start', '--workers', 'lots', '--data-dir', join(dir, 'bad')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('config error: --workers: must be auto or a whole number from 1 to 256');
  });
});
