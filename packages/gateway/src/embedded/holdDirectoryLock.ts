import { holdLockFile } from '@nodegate/backend-process';

/**
 * Takes the lock file `file` for this gateway (`holdLockFile` of @nodegate/backend-process): its data directory
 * (`acquireDataDirLock`) and, as a supervisor, each backend's. A lock held by a process that still runs is refused
 * with an error naming it and `what`. Taken before anything is reaped or started there. Resolves with the release
 * function.
 *
 * @example
 * const release = await holdDirectoryLock('/data/anvil/supervisor.lock', 'the anvil data directory /data/anvil');
 */
export async function holdDirectoryLock(file: string, what: string): Promise<() => Promise<void>> {
  const release = holdLockFile(file, (pid) => new Error(`${what} is in use by another nodegate process (pid ${pid})`));
  return async () => release();
}
