import { join } from 'node:path';
import { holdLockFile } from '@nodegate/backend-process';

/**
 * Takes `<dataDir>/devchain.lock` (holding this process id) so that two dev chains never run on one data directory
 * (each would append its own blocks to the same record file); see `holdLockFile`. Throws, naming the directory and
 * the holder, when a running process holds it. Returns the release function.
 *
 * @example
 * const release = lockDataDir('./chain');
 * release();
 */
export function lockDataDir(dataDir: string): () => void {
  return holdLockFile(
    join(dataDir, 'devchain.lock'),
    (pid) => new Error(`the data directory ${dataDir} is in use by another dev chain (process ${pid})`),
  );
}
