import { open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { IpfsNodeError } from '../errors.js';

/**
 * Takes `<repo>/repo.lock` (holding this process id) so that two nodes never share a repo.
 * A lock left by a process that no longer runs is taken over. Returns the release function.
 */
export async function lockRepo(repo: string): Promise<() => Promise<void>> {
  const file = join(repo, 'repo.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return async () => {
        await unlink(file).catch(() => undefined);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number.parseInt(await readFile(file, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) {
        throw new IpfsNodeError('command', `repo ${repo} is locked by process ${pid}`);
      }
      await unlink(file).catch(() => undefined);
    }
  }
  throw new IpfsNodeError('command', `could not lock repo ${repo}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
