import { describe, expect, it } from 'vitest';
import { cacheContract } from './cacheContract.js';
import { createMemoryCache } from './createMemoryCache.js';

describe('createMemoryCache', () => {
  cacheContract(async (maxBytes) => createMemoryCache({ maxBytes }));

  it('never holds more than its bound over 50,000 random entries with tags', async () => {
    const maxBytes = 256 * 1024;
    const c = createMemoryCache({ maxBytes });
    let peak = 0;
    for (let i = 0; i < 50_000; i++) {
      const key = `net|eth_getBlockByHash|["0x${Math.random().toString(16).slice(2)}",false]`;
      await c.set(key, 'x'.repeat(Math.floor(Math.random() * 2_000)), { ttlMs: 60_000, tag: `t${i % 97}` });
      if (i % 1000 === 0) await c.get(key);
      if (i % 500 === 0) await c.dropTag(`t${i % 97}`);
      peak = Math.max(peak, c.stats().bytes);
    }
    expect(peak).toBeLessThanOrEqual(maxBytes);
    expect(c.stats().evictions).toBeGreaterThan(40_000);
  });
});
