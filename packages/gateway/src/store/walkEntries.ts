import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Visits every entry under `dir` (not `dir` itself), depth first, with its `lstat`: symbolic
 * links are visited but never followed. Entries that vanish while it walks (a backend removing a
 * temporary file) are skipped. Stops after `limit` entries and resolves to false then (true when
 * it saw everything).
 *
 * @example
 * await walkEntries('/var/lib/nodegate', (path, stats) => console.log(path, stats.mode & 0o777));
 */
export async function walkEntries(
  dir: string,
  visit: (path: string, stats: Stats) => void | Promise<void>,
  limit = Number.POSITIVE_INFINITY,
): Promise<boolean> {
  let seen = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let names: string[];
    try {
      names = await readdir(current);
    } catch (err) {
      if (isGone(err)) continue;
      throw err;
    }
    for (const name of names) {
      if (seen >= limit) return false;
      const path = join(current, name);
      let stats: Stats;
      try {
        stats = await lstat(path);
      } catch (err) {
        if (isGone(err)) continue;
        throw err;
      }
      seen++;
      await visit(path, stats);
      if (stats.isDirectory()) pending.push(path);
    }
  }
  return true;
}

function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
