import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openEmbeddedUsageStore } from './openEmbeddedUsageStore.js';
import { aggregate, usageStoreContract } from './usageStoreContract.js';

usageStoreContract('embedded (PGlite, in memory)', () => openEmbeddedUsageStore(undefined));

it('the embedded store keeps usage in its directory across reopening', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-usage-'));
  try {
    const minute = Date.UTC(2024, 0, 1);
    const first = await openEmbeddedUsageStore(join(dir, 'usage'));
    await first.write({ aggregates: [aggregate({ minute, key: 'k1', requests: 7 })], errors: [], recent: [] });
    await first.close();
    const again = await openEmbeddedUsageStore(join(dir, 'usage'));
    try {
      expect((await again.totals({ key: 'k1', from: minute, to: minute + 60_000 })).requests).toBe(7);
    } finally {
      await again.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
