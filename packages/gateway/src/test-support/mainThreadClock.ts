import { readFileSync } from 'node:fs';

/**
 * This process's main thread so far, in ms: the CPU it used (`process.threadCpuUsage`, user +
 * system; call it from the main thread) and the time it waited for a CPU while runnable (Linux
 * `/proc/<pid>/task/<pid>/schedstat`; 0 where there is none). Timing tests take the difference
 * over what they measure: the event loop can be late because its own thread worked (what they
 * test) or because a busy machine kept the thread off the CPU (what `waitedMs` says).
 *
 * @example
 * const before = mainThreadClock();
 * await work();
 * const { cpuMs, waitedMs } = mainThreadClock(before);
 */
export function mainThreadClock(since?: { cpuMs: number; waitedMs: number }): { cpuMs: number; waitedMs: number } {
  const { user, system } = process.threadCpuUsage();
  let waitedMs = 0;
  try {
    const fields = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, 'utf8').trim().split(/\s+/);
    waitedMs = Number(fields[1]) / 1e6;
  } catch {
    // not Linux: no figure
  }
  const now = { cpuMs: (user + system) / 1000, waitedMs };
  return since === undefined ? now : { cpuMs: now.cpuMs - since.cpuMs, waitedMs: now.waitedMs - since.waitedMs };
}
