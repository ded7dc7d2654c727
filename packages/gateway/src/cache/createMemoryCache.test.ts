import { describe, expect, it } from 'vitest';
import { cacheContract } from './cacheContract.js';
import { createMemoryCache, MEMORY_CACHE_COSTS, PREPARED_MIN_LENGTH } from './createMemoryCache.js';

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

  it('keeps a long value as its UTF-8 bytes, ready to write, and a short one as a string', async () => {
    const c = createMemoryCache({ maxBytes: 1024 * 1024 });
    // a long value with characters of one, two, three and four UTF-8 bytes
    const long = `{"extraData":"${'a\u00e9\u20ac\u{1f600}'.repeat(PREPARED_MIN_LENGTH / 4)}"}`;
    await c.set('long', long, { ttlMs: 60_000 });
    await c.set('short', '"0x1"', { ttlMs: 60_000 });
    const hit = c.peek('long')!;
    expect(Buffer.from(hit.bytes!).equals(Buffer.from(long, 'utf8'))).toBe(true);
    expect(hit.value).toBe(long);
    expect((await c.get('long'))?.value).toBe(long);
    const small = c.peek('short')!;
    expect(small.bytes).toBeUndefined();
    expect(small.value).toBe('"0x1"');
    // what it counts for the long value: its bytes and a buffer's fixed share, not the string
    const counted = c.stats().bytes;
    const c2 = createMemoryCache({ maxBytes: 1024 * 1024 });
    await c2.set('short', '"0x1"', { ttlMs: 60_000 });
    expect(counted - c2.stats().bytes).toBe(
      16 + 8 + MEMORY_CACHE_COSTS.entry + Buffer.byteLength(long) + MEMORY_CACHE_COSTS.bytes,
    );
  });

  it('holds its bound with values kept as bytes, and gives every byte back when they go', async () => {
    const maxBytes = 64 * 1024;
    const c = createMemoryCache({ maxBytes });
    for (let i = 0; i < 2_000; i++) {
      await c.set(`k${i}`, '\u20ac'.repeat(PREPARED_MIN_LENGTH + (i % 3_000)), { ttlMs: 60_000, tag: `t${i % 5}` });
      expect(c.stats().bytes).toBeLessThanOrEqual(maxBytes);
    }
    for (let t = 0; t < 5; t++) await c.dropTag(`t${t}`);
    expect(c.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
