import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { alive, startTree, within } from './testing/index.js';

// exitWithParent in a real process tree, with no gateway watchdog: a parent process starts the child with
// NODEGATE_PARENT_PID set to its own pid, the test kills the parent with SIGKILL (it stops nothing), and the child
// must stop by itself. The backends' own tests (the dev chain's, the IPFS node's) do the same with their CLIs.
const MODULE = new URL('./exitWithParent.ts', import.meta.url).pathname;

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
});
