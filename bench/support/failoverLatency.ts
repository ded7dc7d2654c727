import { mkdir } from 'node:fs/promises';
import { Pool } from 'undici';
import { startAnvil } from '../../packages/gateway/dist/embedded/startAnvil.js';
import { stop } from './children.js';
import { startGatewayProcess } from './startGatewayProcess.js';

interface Sample {
  start: number;
  end: number;
  ok: boolean;
}

/** `concurrency` loops sending `body` to `url` for `ms`; `at(t)` runs once at `t` ms. */
async function closedLoop(url: string, body: string, concurrency: number, ms: number, at?: [number, () => void]) {
  const u = new URL(url);
  const pool = new Pool(u.origin, { connections: concurrency });
  const samples: Sample[] = [];
  const t0 = performance.now();
  let fired = false;
  const loop = async () => {
    while (performance.now() - t0 < ms) {
      if (at && !fired && performance.now() - t0 >= at[0]) {
        fired = true;
        at[1]();
      }
      const start = performance.now() - t0;
      let ok = false;
      try {
        const res = await pool.request({
          path: u.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        const text = await res.body.text();
        ok = res.statusCode === 200 && text.includes('"result"');
      } catch {}
      samples.push({ start, end: performance.now() - t0, ok });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  await pool.close();
  return samples;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/**
 * Failover latency: a gateway over two anvil upstreams under a closed-loop load (20 clients,
 * eth_getBalance at latest, never cached); the preferred upstream is killed with SIGKILL 2 s in.
 * Reports the p50/p99 latency of the requests in flight at the kill (started in the 200 ms before
 * it), against the p99 of the same load with no kill (the baseline, in the same run), the errors,
 * and how long after the kill the requests succeed again.
 */
export async function failoverLatency(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const [a, b] = await Promise.all([startAnvil(), startAnvil()]);
  const { child, ready } = await startGatewayProcess(dir, {
    cache: { enabled: false },
    networks: [
      {
        name: 'bench',
        family: 'eth',
        pathPrefix: '/bench',
        upstreams: [
          { name: 'a', http: a.http, timeoutMs: 2_000 },
          { name: 'b', http: b.http, timeoutMs: 2_000 },
        ],
        policy: { probeIntervalMs: 250 },
      },
    ],
  });
  const url = `${ready.networks.bench!.http}/v3/${ready.devKey.key}`;
  const body = `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x${'11'.repeat(20)}","latest"]}`;
  try {
    await closedLoop(url, body, 20, 1_000); // warm-up
    const baseline = await closedLoop(url, body, 20, 4_000);
    const killAt = 2_000;
    const withKill = await closedLoop(url, body, 20, 4_000, [killAt, () => void a.stop()]);
    const inFlight = withKill.filter((s) => s.start >= killAt - 200 && s.start <= killAt + 5 && s.end >= killAt);
    const after = withKill.filter((s) => s.start > killAt).sort((x, y) => x.start - y.start);
    const lastFailure = after.filter((s) => !s.ok).at(-1);
    const recovered = lastFailure === undefined ? 0 : lastFailure.end - killAt;
    const base = baseline.map((s) => s.end - s.start);
    const flight = inFlight.map((s) => s.end - s.start);
    const errors = withKill.filter((s) => !s.ok).length;
    return [
      `\nfailover: 2 anvil upstreams, 20 clients (eth_getBalance latest), the preferred upstream killed at 2 s`,
      `no kill (baseline): p50 ${pct(base, 50).toFixed(2)} ms, p99 ${pct(base, 99).toFixed(2)} ms, ${baseline.length} requests`,
      `in flight at the kill: ${flight.length} requests, p50 ${pct(flight, 50).toFixed(2)} ms, p99 ${pct(flight, 99).toFixed(2)} ms, max ${Math.max(...flight).toFixed(0)} ms`,
      `errors: ${errors} of ${withKill.length}; last failure ${recovered.toFixed(0)} ms after the kill (goal: failover within 1 s, no request hangs)`,
      `p99 in flight / p99 baseline = ${(pct(flight, 99) / pct(base, 99)).toFixed(1)}`,
    ];
  } finally {
    await stop(child);
    await Promise.all([a.stop(), b.stop()]);
  }
}
