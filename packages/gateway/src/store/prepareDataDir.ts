import { mkdir, stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { Logger } from '../log/createLogger.js';
import { walkEntries } from './walkEntries.js';

/** At most this many entries are checked at start (an IPFS repository can hold many blocks). */
export const DATA_DIR_CHECK_LIMIT = 200_000;
/** How many offending paths a message names. */
const NAMED = 3;

/** What {@link prepareDataDir} found. */
export interface DataDirCheck {
  /** Entries (the directory itself included) other users can read: warned about. */
  readonly readable: number;
  /** Whether every entry was checked (false past {@link DATA_DIR_CHECK_LIMIT}). */
  readonly complete: boolean;
}

const mode = (m: number) => `0${(m & 0o777).toString(8).padStart(3, '0')}`;

/**
 * Makes the data directory private before anything is written there: the process umask becomes
 * 077 (as PostgreSQL's server sets it), so every file and directory the gateway and its embedded
 * backends (anvil, the dev chain, the IPFS node: they inherit it) create is 0600/0700; the
 * directory is created 0700 when it does not exist. Then it and everything in it is checked:
 * - anything group- or other-writable refuses the start (an error naming the first paths and the
 *   fix): another user could change the keys, the accounts or a backend's state;
 * - anything only group- or other-readable (an older install, a directory made by hand) is
 *   logged as a warning: the database holds key and password hashes, the dev key its secret.
 * Not on Windows, whose files have no such modes. In a worker thread (tests) the umask cannot be
 * changed; the explicit modes still apply.
 *
 * @example
 * await prepareDataDir('/var/lib/nodegate', log);
 */
export async function prepareDataDir(dataDir: string, log: Logger): Promise<DataDirCheck> {
  if (process.platform === 'win32') return { readable: 0, complete: true };
  if (isMainThread) process.umask(0o077);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const writable: string[] = [];
  const readable: string[] = [];
  let writableCount = 0;
  let readableCount = 0;
  const check = (path: string, m: number) => {
    const name = `${path === dataDir ? '.' : relative(dataDir, path)} ${mode(m)}`;
    if ((m & 0o022) !== 0) {
      writableCount++;
      if (writable.length < NAMED) writable.push(name);
    } else if ((m & 0o044) !== 0) {
      readableCount++;
      if (readable.length < NAMED) readable.push(name);
    }
  };
  const top = await stat(dataDir);
  if (!top.isDirectory()) throw new Error(`the data directory ${dataDir} is not a directory`);
  check(dataDir, top.mode);
  const complete = await walkEntries(
    dataDir,
    (path, stats) => {
      if (!stats.isSymbolicLink()) check(path, stats.mode);
    },
    DATA_DIR_CHECK_LIMIT,
  );
  if (writableCount > 0) {
    throw new Error(
      `the data directory ${dataDir} is not private: ${writableCount} ${writableCount === 1 ? 'entry' : 'entries'} ` +
        `can be written by other users (${writable.join(', ')}${writableCount > NAMED ? ', …' : ''}), so anyone on ` +
        `this machine could change its keys and accounts. Make it private (chmod -R go-rwx '${dataDir}') and start again`,
    );
  }
  if (readableCount > 0) {
    log.warn('the data directory can be read by other users: make it private (chmod -R go-rwx)', {
      dataDir,
      entries: readableCount,
      first: readable,
    });
  }
  if (!complete) {
    log.warn('the data directory has more entries than are checked at start; the rest were not', {
      dataDir,
      checked: DATA_DIR_CHECK_LIMIT,
    });
  }
  return { readable: readableCount, complete };
}
