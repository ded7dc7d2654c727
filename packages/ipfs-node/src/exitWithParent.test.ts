import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive, startTree, within } from '@nodegate/backend-process/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The backend under the gateway's supervision, with no gateway watchdog: a parent process starts the CLI with
// NODEGATE_PARENT_PID set to its own pid (as the gateway does), the test kills the parent with SIGKILL (it stops
// nothing), and the CLI must stop by itself (exitWithParent of @nodegate/backend-process) and free its directory.
const CLI = new URL('./cli.ts', import.meta.url).pathname;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ipfs-node-exit-with-parent-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('exitWithParent', () => {
  it("the IPFS node's CLI, started by a parent that is then killed with SIGKILL, stops and frees its data directory", async () => {
    const readyFile = join(dir, 'ready.json');
    const data = join(dir, 'data');
    const tree = await startTree([CLI, '--listen', '127.0.0.1:0', '--repo', data, '--ready-file', readyFile]);
    try {
      await within(() => existsSync(readyFile), 60_000);
      expect(alive(tree.child)).toBe(true);
      tree.parent.kill('SIGKILL');
      const took = await within(() => !alive(tree.child), 10_000);
      expect(took).toBeLessThan(5_000);
      // its lock is released: another process may use the directory now
      expect(existsSync(join(data, 'repo.lock'))).toBe(false);
    } finally {
      if (alive(tree.child)) process.kill(tree.child, 'SIGKILL');
    }
  });
});
