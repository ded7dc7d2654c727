import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';

setFlagsFromString('--expose-gc');
/** The client's own full collection, run between the warm-up and the measured part. */
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Latency at a fixed request rate, with microsecond resolution (autocannon reports whole
 * milliseconds): `rate` POSTs of `body` per second spread evenly over `duration` seconds, over 20
 * keep-alive connections (undici). Resolves to the p50 and p99 in ms and the failed count.
 *
 * The same rate is sent for `warmup` seconds first, on the same connections, and not counted:
 * a run's first few hundred milliseconds otherwise measured its 20 connections being opened
 * (and, on a server that had not yet seen that rate, its compiler's work), not the steady state.
 * Then the client collects its own garbage (a full collection, several milliseconds in a process
 * that has run autocannon rounds, fell inside later runs and counted as the server's latency).
 *
 * The client keeps as little as it can while it measures (the samples in one preallocated array,
 * a count of the requests in flight, each answer's body discarded unread): a client that kept
 * every request's promise and body grew its heap until a full collection stalled it for tens of
 * milliseconds mid-run, and the burst it sent afterwards showed up as the server's tail.
 */
export async function fixedRateLatency(url: string, body: string, rate: number, duration: number, warmup = 1) {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 20 });
  try {
    if (warmup > 0) await send(pool, u.pathname, body, rate, warmup, undefined);
    collectGarbage();
    const samples = new Float64Array(rate * duration);
    const { answered, errors } = await send(pool, u.pathname, body, rate, duration, samples);
    const sorted = samples.subarray(0, answered).sort();
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
    return { p50: pct(50), p99: pct(99), errors };
  } finally {
    await pool.close();
  }
}

/** `rate` requests a second for `duration` seconds; each answer's latency into `samples`. */
async function send(
  pool: Pool,
  path: string,
  body: string,
  rate: number,
  duration: number,
  samples: Float64Array | undefined,
): Promise<{ answered: number; errors: number }> {
  const total = rate * duration;
  let answered = 0;
  let errors = 0;
  let pending = 0;
  let allSent = false;
  let done: () => void = () => {};
  const finished = new Promise<void>((r) => {
    done = r;
  });
  const settle = () => {
    pending--;
    if (allSent && pending === 0) done();
  };
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    pending++;
    pool
      .request({ path, method: 'POST', headers: { 'content-type': 'application/json' }, body })
      .then(async (res) => {
        await res.body.dump();
        if (res.statusCode !== 200) errors++;
        else if (samples !== undefined) samples[answered++] = performance.now() - t0;
        else answered++;
      })
      .catch(() => {
        errors++;
      })
      .finally(settle);
  }
  allSent = true;
  if (pending > 0) await finished;
  return { answered, errors };
}
