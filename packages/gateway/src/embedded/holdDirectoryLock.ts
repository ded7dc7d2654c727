import { open, readFile, rm } from 'node:fs/promises';
import { processRuns } from './processRuns.js';

/**
 * Takes the lock file `file` for this process (it holds our pid, created exclusively), so that
 * no two processes use one directory: the gateway's data directory (`acquireDataDirLock`) and,
 * for a supervising gateway, each backend's. A lock held by a process that still runs is refused
 * with an error naming it and `what`; one whose process is gone is taken over. Taken before
 * anything is reaped or started there. Resolves with the release function (removes the file if
 * it is still ours).
 *
 * @example
 * const release = await holdDirectoryLock('/data/anvil/supervisor.lock', 'the anvil data directory /data/anvil');
 */
export async function holdDirectoryLock(file: string, what: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(file, 'wx', 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return async () => {
        const holder = Number(await readFile(file, 'utf8').catch(() => ''));
        if (holder === process.pid) await rm(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && processRuns(pid)) {
        throw new Error(`${what} is in use by another nodegate process (pid ${pid})`);
      }
      // left by a process that is gone (or by us): taken over
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock ${what}`);
}
