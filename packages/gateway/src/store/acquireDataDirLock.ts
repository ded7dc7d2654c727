import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes this process the only gateway using `dataDir` (the embedded database allows one
 * process). A lock left by a process that no longer runs is taken over.
 * Resolves to the unlock function.
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  const file = join(dataDir, 'gateway.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(file, 'wx', 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return async () => {
        await rm(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(await readFile(file, 'utf8').catch(() => ''));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new Error(`data directory ${dataDir} is in use by another nodegate process (pid ${pid})`);
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
