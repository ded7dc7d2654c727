import { join } from 'node:path';
import { holdDirectoryLock } from '../embedded/holdDirectoryLock.js';

/**
 * Makes this process the only gateway using `dataDir` (the embedded database allows one
 * process, and embedded backends one supervisor): `<dataDir>/gateway.pid`, held with
 * `holdDirectoryLock` (a lock left by a process that no longer runs is taken over).
 * Resolves to the unlock function.
 *
 * @example
 * const unlock = await acquireDataDirLock('./data');
 */
export async function acquireDataDirLock(dataDir: string): Promise<() => Promise<void>> {
  return holdDirectoryLock(join(dataDir, 'gateway.pid'), `data directory ${dataDir}`);
}
