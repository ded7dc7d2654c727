import { describe, expect, it } from 'vitest';
import { cacheContract } from './cacheContract.js';
import { createMemoryCache } from './createMemoryCache.js';

describe('createMemoryCache', () => {
  cacheContract(async () => createMemoryCache({ maxBytes: 1024 * 1024 }));

  it('never holds more than its bound, whatever goes in, and evicts the least recently used first', async () => {
    const maxBytes = 256 * 1024;
    const c = createMemoryCache({ maxBytes });
    let peak = 0;
    for (let i = 0; i < 50_000; i++) {
      const key = `net|eth_getBlockByHash|["0x${Math.random().toString(16).slice(2)}",false]`;
      await c.set(key, 'x'.repeat(Math.floor(Math.random() * 2_000)), { ttlMs: 60_000, tag: `t${i % 97}` });
      if (i % 1000 === 0) await c.get(key);
      peak = Math.max(peak, c.stats().bytes);
    }
    expect(peak).toBeLessThanOrEqual(maxBytes);
    expect(c.stats().evictions).toBeGreaterThan(40_000);
    // least recently used out first: a key read again survives new entries that evict others
    const small = createMemoryCache({ maxBytes: 2_000 });
    await small.set('a', 'x'.repeat(100), { ttlMs: 60_000 });
    await small.set('b', 'x'.repeat(100), { ttlMs: 60_000 });
    await small.get('a');
    for (let i = 0; i < 5; i++) await small.set(`n${i}`, 'x'.repeat(100), { ttlMs: 60_000 });
    expect(await small.get('a')).toBeDefined();
    expect(await small.get('b')).toBeUndefined();
    // a value larger than the whole cache is not kept
    await small.set('huge', 'x'.repeat(5_000), { ttlMs: 60_000 });
    expect(await small.get('huge')).toBeUndefined();
  });
});
