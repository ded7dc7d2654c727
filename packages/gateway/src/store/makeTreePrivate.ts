import { chmod, lstat } from 'node:fs/promises';
import { walkEntries } from './walkEntries.js';

/**
 * Takes the group's and other users' permissions off `dir` and everything under it (a file at
 * 0666 becomes 0600, a directory at 0755 0700; symbolic links are left alone). Used on the
 * embedded database after it opens (files an older version or another tool wrote may be open to
 * others; PGlite, the embedded database of earlier versions, wrote its files 0666 whatever the umask).
 * Resolves to the number of entries changed.
 *
 * @example
 * await makeTreePrivate('/var/lib/nodegate/db'); // 968 the first time, then 0
 */
export async function makeTreePrivate(dir: string): Promise<number> {
  let changed = 0;
  const restrict = async (path: string, mode: number) => {
    if ((mode & 0o077) === 0) return;
    await chmod(path, mode & 0o700);
    changed++;
  };
  await restrict(dir, (await lstat(dir)).mode);
  await walkEntries(dir, (path, stats) => (stats.isSymbolicLink() ? undefined : restrict(path, stats.mode)));
  return changed;
}
