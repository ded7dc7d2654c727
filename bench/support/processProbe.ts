import { readFile } from 'node:fs/promises';

/**
 * A process's resident memory now, MB (Linux /proc); with `peak`, the most it held at any moment
 * since it started (VmHWM). Undefined once it is gone.
 */
export async function rssMb(pid: number | undefined, peak = false): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status && (peak ? /VmHWM:\s+(\d+)/ : /VmRSS:\s+(\d+)/).exec(status)?.[1];
  return kb ? Number(kb) / 1024 : undefined;
}

/**
 * The CPU a whole process (every thread: the collector's helpers too) used so far, ms, user and
 * system together (Linux `/proc/<pid>/stat`, in clock ticks of 10 ms); undefined once it is gone.
 */
export async function processCpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // the fields after the command name (which may hold spaces) in parentheses; utime and stime are the 12th and 13th
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields === undefined || fields.length < 13) return undefined;
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * A process's main thread so far (Linux `/proc/<pid>/task/<pid>/schedstat`), ms: the CPU it used,
 * and the time it waited for a CPU while it could run (what a busy machine adds to its event
 * loop's delay). Undefined where there is no such file.
 */
export async function mainThreadSchedMs(pid: number | undefined): Promise<{ cpu: number; waited: number } | undefined> {
  if (pid === undefined) return undefined;
  const text = await readFile(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const [cpu, waited] = text.trim().split(/\s+/).map(Number);
  return { cpu: cpu! / 1e6, waited: waited! / 1e6 };
}

/**
 * A process and its children (Linux `/proc/<pid>/task/<pid>/children`): a cluster's primary and
 * its workers. Just the process when it has none (or is gone).
 */
export async function processTree(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return [pid, ...text.split(/\s+/).filter(Boolean).map(Number)];
}

/** The machine's load average over the last minute (Linux /proc). */
export async function loadAverage(): Promise<number | undefined> {
  const text = await readFile('/proc/loadavg', 'utf8').catch(() => undefined);
  return text ? Number(text.split(' ')[0]) : undefined;
}

/** The interval prom-client's event-loop histogram samples at (`eventLoopMonitoringPrecision`, ms). */
const LAG_RESOLUTION_MS = 10;

/** One scrape of a gateway's `/metrics`: the samples without labels, by name. */
export async function scrapeMetrics(url: string, token: string): Promise<Map<string, number>> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`metrics: ${res.status}`);
  const values = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-z_:][a-z0-9_:]*) (\S+)$/i.exec(line);
    if (m) values.set(m[1]!, Number(m[2]));
  }
  return values;
}

/**
 * Every worker's samples of one gathered scrape of a cluster (`nodegate start --workers N`), by
 * worker number, 1 … `workers` (each worker's histograms are reset by it, as a single gateway's).
 */
export async function scrapeWorkers(url: string, token: string, workers: number): Promise<Map<string, number>[]> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`metrics: ${res.status}`);
  const out = Array.from({ length: workers }, () => new Map<string, number>());
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-z_:][a-z0-9_:]*)\{worker="(\d+)"\} (\S+)$/i.exec(line);
    const at = m ? Number(m[2]) - 1 : -1;
    if (m && at >= 0 && at < workers) out[at]!.set(m[1]!, Number(m[3]));
  }
  return out;
}

/**
 * A gateway's event-loop delay since the previous scrape (prom-client's
 * `perf_hooks.monitorEventLoopDelay` histogram, which each scrape resets): its p99 and max, ms,
 * beyond the 10 ms the histogram samples at (a loop never blocked reads 0).
 */
export function eventLoopDelayMs(scrape: Map<string, number>): { p99: number; max: number } {
  const ms = (name: string) => Math.max(0, (scrape.get(name) ?? Number.NaN) * 1000 - LAG_RESOLUTION_MS);
  return { p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') };
}
