import { join } from 'node:path';
import { holdLockFile } from '@nodegate/backend-process';
import { IpfsNodeError } from '../errors.js';

/**
 * Takes `<repo>/repo.lock` (holding this process id) so that two nodes never share a repo; see `holdLockFile`.
 * A lock left by a process that no longer runs is taken over. Returns the release function.
 */
export async function lockRepo(repo: string): Promise<() => Promise<void>> {
  const release = holdLockFile(
    join(repo, 'repo.lock'),
    (pid) => new IpfsNodeError('command', `repo ${repo} is locked by process ${pid}`),
  );
  return async () => release();
}
