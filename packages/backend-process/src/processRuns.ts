import { readFileSync } from 'node:fs';

/**
 * Whether a process runs: signal 0 reaches it (or is refused for permission), and on Linux it is
 * not a zombie (dead but not yet reaped by its parent). Without `/proc` (not Linux) the signal's
 * word is taken.
 *
 * @example
 * if (processRuns(pid)) throw new Error(`held by process ${pid}`);
 */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // no /proc entry: gone on Linux; elsewhere the signal said it exists
    return process.platform !== 'linux';
  }
}
