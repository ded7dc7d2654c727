import { readFile, rm } from 'node:fs/promises';
import { processRuns } from '@nodegate/backend-process';

/** What a pid file of an embedded backend holds. */
export interface PidFile {
  readonly pid: number;
  /** A string the process's command line contains (its binary or CLI and its data directory). */
  readonly marker: string;
}

/** The command line of a process (Linux /proc), or undefined when it cannot be read. */
async function commandLine(pid: number): Promise<string | undefined> {
  const raw = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return raw?.replaceAll('\0', ' ');
}

/**
 * Reaps a backend left running by a gateway that was killed: reads `file`, and when its process
 * still runs and is the same backend (its command line contains the recorded marker, so a reused
 * pid of an unrelated process is never touched), stops it (SIGTERM, SIGKILL after `graceMs`) and
 * waits until it is gone. The pid file is removed either way. Resolves with the pid reaped, if any.
 *
 * @example
 * const reaped = await reapStaleChild('/data/anvil/nodegate-child.pid');
 */
export async function reapStaleChild(file: string, graceMs = 3_000): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  await rm(file, { force: true });
  let recorded: PidFile;
  try {
    recorded = JSON.parse(text) as PidFile;
  } catch {
    return undefined;
  }
  const { pid, marker } = recorded;
  if (!Number.isSafeInteger(pid) || pid <= 1 || pid === process.pid || !processRuns(pid)) return undefined;
  const cmd = await commandLine(pid);
  if (cmd === undefined || typeof marker !== 'string' || !cmd.includes(marker)) return undefined;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return undefined;
  }
  const end = Date.now() + graceMs;
  while (processRuns(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  if (processRuns(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
    const hard = Date.now() + graceMs;
    while (processRuns(pid) && Date.now() < hard) await new Promise((r) => setTimeout(r, 20));
  }
  return pid;
}
