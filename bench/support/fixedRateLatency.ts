import { Pool } from 'undici';

/**
 * Latency at a fixed request rate, with microsecond resolution (autocannon reports whole
 * milliseconds): `rate` POSTs of `body` per second spread evenly over `duration` seconds, over 20
 * keep-alive connections (undici). Resolves to the p50 and p99 in ms and the failed count.
 */
export async function fixedRateLatency(url: string, body: string, rate: number, duration: number) {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: 20 });
  const samples: number[] = [];
  let errors = 0;
  const total = rate * duration;
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t0 = performance.now();
    inflight.push(
      pool
        .request({ path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (res) => {
          await res.body.text();
          if (res.statusCode !== 200) errors++;
          samples.push(performance.now() - t0);
        })
        .catch(() => {
          errors++;
        }),
    );
  }
  await Promise.all(inflight);
  await pool.close();
  samples.sort((x, y) => x - y);
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;
  return { p50: pct(50), p99: pct(99), errors };
}
