import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Starts a parent process that starts `node --import tsx <args>` with NODEGATE_PARENT_PID set to the parent's pid (as
 * the gateway does); resolves with both and every line the child prints. Kill `parent` with SIGKILL to see whether
 * the child stops by itself.
 *
 * @example
 * const tree = await startTree([cliPath, '--data-dir', dir]);
 * tree.parent.kill('SIGKILL');
 * await within(() => !alive(tree.child), 5_000);
 */
export async function startTree(args: string[]): Promise<{ parent: ChildProcess; child: number; lines: string[] }> {
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
export async function within(check: () => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}
