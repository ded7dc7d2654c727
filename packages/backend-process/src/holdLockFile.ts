import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { processRuns } from './processRuns.js';

/** Lock files this process holds now: another take of one of them is refused, not mistaken for a stale lock. */
const held = new Set<string>();

/**
 * Takes the lock file `file` for this process: created exclusively, holding our pid, so that no two processes use
 * one directory (the dev chain's data directory, the IPFS repo, the gateway's data directory and, for a supervising
 * gateway, each backend's). A lock held by a process that still runs, this one included, is refused with
 * `inUse(pid)`; one left by a process that is gone (or a zombie, or an earlier process that had our pid) is taken
 * over. Returns the release function, which removes the file if it is still ours.
 *
 * @example
 * const release = holdLockFile(join(dir, 'devchain.lock'), (pid) => new Error(`${dir} is in use (process ${pid})`));
 * release();
 */
export function holdLockFile(file: string, inUse: (pid: number) => Error): () => void {
  const path = resolve(file);
  if (held.has(path)) throw inUse(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(path);
      return () => {
        if (!held.delete(path)) return;
        let holder = '';
        try {
          holder = readFileSync(file, 'utf8');
        } catch {}
        if (holder === String(process.pid)) rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let pid = Number.NaN;
      try {
        pid = Number(readFileSync(file, 'utf8').trim());
      } catch {}
      if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && processRuns(pid)) throw inUse(pid);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`could not lock ${file}`);
}
