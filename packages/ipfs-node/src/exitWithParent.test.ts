import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// exitWithParent in a real process tree, with no gateway watchdog: a parent process starts the
// child with NODEGATE_PARENT_PID set to its own pid, the test kills the parent with SIGKILL (it
// stops nothing), and the child must stop by itself. The child is first the function alone in a
// small script, then the IPFS node's CLI as the gateway starts it.
const MODULE = new URL('./exitWithParent.ts', import.meta.url).pathname;
const CLI = new URL('./cli.ts', import.meta.url).pathname;
let dir: string;

/** Whether a process runs (a zombie waiting to be reaped does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Starts a parent process that starts `node --import tsx <args>` with NODEGATE_PARENT_PID set
 * to the parent's pid (as the gateway does); resolves with both and every line the child prints.
 */
async function startTree(args: string[]): Promise<{ parent: ChildProcess; child: number; lines: string[] }> {
  const script = `
    const { spawn } = require('node:child_process');
    const child = spawn(process.execPath, ['--import', 'tsx', ...${JSON.stringify(args)}], {
      env: { ...process.env, NODEGATE_PARENT_PID: String(process.pid) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    console.log('child ' + child.pid);
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buf = '';
  const child = await new Promise<number>((resolve, reject) => {
    parent.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      let nl = buf.indexOf('\n');
      while (nl >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        const m = /^child (\d+)$/.exec(line);
        if (m) resolve(Number(m[1]));
        nl = buf.indexOf('\n');
      }
    });
    parent.once('exit', (code) => reject(new Error(`the parent exited (${code})`)));
  });
  return { parent, child, lines };
}

/** Resolves with how long `check` took to pass (polled every 20 ms), or throws after `timeoutMs`. */
async function within(check: () => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ipfs-node-exit-with-parent-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('exitWithParent', () => {
  it('the child stops by itself when its parent is killed with SIGKILL, and not before', async () => {
    const code = `import { exitWithParent } from ${JSON.stringify(MODULE)};
      exitWithParent(() => { console.log('parent gone'); process.exit(0); });
      console.log('watching');
      setInterval(() => {}, 1000);`;
    const tree = await startTree(['--input-type=module', '-e', code]);
    await within(() => tree.lines.includes('watching'), 20_000);
    // two checks (every 500 ms) with the parent alive: still running
    await new Promise((r) => setTimeout(r, 1_200));
    expect(alive(tree.child)).toBe(true);
    tree.parent.kill('SIGKILL');
    const took = await within(() => !alive(tree.child), 5_000);
    expect(took).toBeLessThan(2_000);
    expect(tree.lines).toContain('parent gone');
  });

  it('without NODEGATE_PARENT_PID it watches nothing (a backend started by hand)', async () => {
    const code = `import { exitWithParent } from ${JSON.stringify(MODULE)};
      exitWithParent(() => process.exit(3), {});
      setTimeout(() => process.exit(0), 1_500);`;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: 'ignore' });
    const exitCode = await new Promise((resolve) => child.once('exit', resolve));
    expect(exitCode).toBe(0);
  });

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
