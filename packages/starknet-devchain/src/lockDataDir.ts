import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Takes `<dataDir>/devchain.lock` (holding this process id) so that two dev chains never run on
 * one data directory (each would append its own blocks to the same record file). A lock whose
 * process no longer runs is taken over. Throws, naming the directory and the holder, when a
 * running process holds it. Returns the release function.
 *
 * @example
 * const release = lockDataDir('./chain');
 * release();
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, 'devchain.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {}
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder = Number.NaN;
      try {
        holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
      } catch {}
      if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
        throw new Error(`the data directory ${dataDir} is in use by another dev chain (process ${holder})`);
      }
      try {
        unlinkSync(file);
      } catch {}
    }
  }
  throw new Error(`could not lock the data directory ${dataDir}`);
}
