import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { mainThreadClock } from '../../test-support/mainThreadClock.js';
import { openEmbeddedDatabase } from './openEmbeddedDatabase.js';

/** The event loop may fall this far behind meanwhile (beyond the time the machine kept its thread waiting for a CPU). */
const MAX_DELAY_MS = 15;

it('a statement that runs for a second or more in the database worker leaves the event loop free', async () => {
  const db = await openEmbeddedDatabase(undefined, { queryTimeoutMs: 60_000 });
  try {
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const started = performance.now();
    const clock = mainThreadClock();
    const { rows } = await db.query<{ n: number }>(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000000) SELECT count(*) AS n FROM c',
    );
    const ms = performance.now() - started;
    const { cpuMs: cpu, waitedMs } = mainThreadClock(clock);
    // a tick late because of it is recorded when it fires: let it
    await new Promise((r) => setTimeout(r, 20));
    loop.disable();
    const maxDelayMs = loop.max / 1e6 - 1;
    console.log(
      `a ${ms.toFixed(0)} ms statement in the worker: the gateway's thread used ${cpu.toFixed(1)} ms of CPU and waited ${waitedMs.toFixed(1)} ms for one; event loop max delay ${maxDelayMs.toFixed(2)} ms`,
    );
    expect(rows[0]?.n).toBe(5_000_000);
    expect(ms).toBeGreaterThan(100);
    // the gateway's thread did not run it (on its own thread it would have used about `ms`)
    expect(cpu).toBeLessThan(ms / 10);
    // late by no more than the bound, beyond the time a busy machine kept the thread off the CPU
    expect(maxDelayMs).toBeLessThan(MAX_DELAY_MS + waitedMs);
  } finally {
    await db.close();
  }
});
