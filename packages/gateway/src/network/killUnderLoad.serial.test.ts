import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../embedded/startAnvil.js';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';

// Two real anvil upstreams behind a gateway in its own process, 20 clients in a closed loop; the
// upstream the gateway prefers is killed with SIGKILL in the middle. Measured, not mocked.
let a: Awaited<ReturnType<typeof startAnvil>>;
let b: Awaited<ReturnType<typeof startAnvil>>;
let gw: SpawnedGateway;
let url: string;

beforeAll(async () => {
  [a, b] = await Promise.all([startAnvil(), startAnvil()]);
  gw = await spawnGateway({
    devKey: true,
    cache: { enabled: false },
    networks: [
      {
        name: 'mainnet',
        family: 'eth',
        pathPrefix: '/mainnet',
        upstreams: [
          { name: 'a', http: a.http, timeoutMs: 2_000 },
          { name: 'b', http: b.http, timeoutMs: 2_000 },
        ],
        policy: { probeIntervalMs: 250 },
      },
    ],
  });
  url = `${gw.ready.networks.mainnet!.http}/v3/${gw.ready.devKey!.key}`;
});

afterAll(async () => {
  await gw?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('a real upstream killed under load', () => {
  it('no request hangs, and requests succeed again within 1 s', async () => {
    const u = new URL(url);
    const pool = new Pool(u.origin, { connections: 20 });
    const body = `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x${'11'.repeat(20)}","latest"]}`;
    const samples: { start: number; end: number; ok: boolean }[] = [];
    const t0 = performance.now();
    const killAt = 1_500;
    let killed = false;
    const loop = async () => {
      while (performance.now() - t0 < 4_000) {
        if (!killed && performance.now() - t0 >= killAt) {
          killed = true;
          void a.stop(); // SIGTERM then SIGKILL; anvil dies at once
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
    await Promise.all(Array.from({ length: 20 }, loop));
    await pool.close();

    const longest = Math.max(...samples.map((s) => s.end - s.start));
    const failures = samples.filter((s) => !s.ok);
    const lastFailure = failures.length === 0 ? killAt : Math.max(...failures.map((s) => s.end));
    // no request hangs: every one ended well within the upstream timeout
    expect(longest).toBeLessThan(2_500);
    // failover within 1 s of the kill: after that, every request succeeds
    expect(lastFailure - killAt).toBeLessThan(1_000);
    expect(samples.filter((s) => s.start > killAt + 1_000).every((s) => s.ok)).toBe(true);
    expect(samples.length).toBeGreaterThan(200);
    // the snapshot shows the dead upstream
    const health = (await (await fetch(`${new URL(url).origin}/health`)).json()) as any;
    const dead = health.networks.mainnet.upstreams.find((x: any) => x.name === 'a');
    expect(dead.healthy).toBe(false);
    console.log(
      `kill under load: ${samples.length} requests, ${failures.length} failed, last failure ${(lastFailure - killAt).toFixed(0)} ms after the kill, longest ${longest.toFixed(0)} ms`,
    );
  });
});
