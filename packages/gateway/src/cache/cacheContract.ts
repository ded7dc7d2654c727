import { expect, it } from 'vitest';
import type { ResponseCache } from './ResponseCache.js';

/**
 * The contract every ResponseCache keeps, run against each implementation (memory, Redis):
 * get what was set (with the block and generation it was read at), miss what was not, expire
 * after the TTL (never with `Infinity`), drop by tag without touching the other entries,
 * overwrite in place, and stay within `maxBytes` counting every structure it holds (entries and
 * the tag index), least recently used out first. `make(maxBytes)` gives an empty cache.
 */
export function cacheContract(make: (maxBytes: number) => Promise<ResponseCache>): void {
  it('returns what was set, with its block and generation, and misses what was not', async () => {
    const c = await make(1024 * 1024);
    await c.set('n|eth_chainId|[]', '"0x1"', { ttlMs: 60_000 });
    expect(await c.get('n|eth_chainId|[]')).toMatchObject({ value: '"0x1"', block: undefined, generation: 0 });
    expect(await c.get('n|eth_chainId|["x"]')).toBeUndefined();
    const block = { number: 7, hash: `0x${'ab'.repeat(32)}` };
    await c.set('b', '{"a":"|x|"}', { ttlMs: 60_000, tag: `blk:${block.hash}`, block, generation: 3 });
    expect(await c.get('b')).toMatchObject({ value: '{"a":"|x|"}', block, generation: 3 });
    await c.set('h', '1', { ttlMs: 60_000, block: { hash: '0x12' } });
    expect((await c.get('h'))?.block).toEqual({ hash: '0x12' });
    expect(c.stats().hits).toBeGreaterThanOrEqual(2);
    expect(c.stats().misses).toBeGreaterThanOrEqual(1);
    await c.close();
  });

  it('forgets an entry after its TTL, and keeps one set forever', async () => {
    const c = await make(1024 * 1024);
    await c.set('ttl', '1', { ttlMs: 50 });
    await c.set('forever', '2', { ttlMs: Number.POSITIVE_INFINITY });
    expect((await c.get('ttl'))?.value).toBe('1');
    await new Promise((r) => setTimeout(r, 120));
    expect(await c.get('ttl')).toBeUndefined();
    expect((await c.get('forever'))?.value).toBe('2');
    await c.close();
  });

  it('drops every entry of a tag and only those', async () => {
    const c = await make(1024 * 1024);
    await c.set('a', '1', { ttlMs: 60_000, tag: 'block:0xaa' });
    await c.set('b', '2', { ttlMs: 60_000, tag: 'block:0xaa' });
    await c.set('c', '3', { ttlMs: 60_000, tag: 'block:0xbb' });
    await c.set('d', '4', { ttlMs: 60_000 });
    expect(await c.dropTag('block:0xaa')).toBe(2);
    expect(await c.get('a')).toBeUndefined();
    expect(await c.get('b')).toBeUndefined();
    expect((await c.get('c'))?.value).toBe('3');
    expect((await c.get('d'))?.value).toBe('4');
    expect(await c.dropTag('block:0xaa')).toBe(0);
    await c.close();
  });

  it('overwrites an entry in place', async () => {
    const c = await make(1024 * 1024);
    await c.set('k', 'old', { ttlMs: 60_000, tag: 't1' });
    await c.set('k', 'new', { ttlMs: 60_000, tag: 't2' });
    expect((await c.get('k'))?.value).toBe('new');
    // the old tag no longer names it
    expect(await c.dropTag('t1')).toBe(0);
    expect((await c.get('k'))?.value).toBe('new');
    await c.close();
  });

  it('counts entries and the tag index against its bound, and gives it all back when they go', async () => {
    const c = await make(1024 * 1024);
    expect(await c.size()).toEqual({ entries: 0, bytes: 0 });
    await c.set('a', 'x'.repeat(100), { ttlMs: 60_000 });
    const untagged = (await c.size()).bytes;
    expect(untagged).toBeGreaterThan(100);
    // a tag costs bytes of its own, and each membership too
    await c.set('b', 'x'.repeat(100), { ttlMs: 60_000, tag: 'blk:0x01' });
    const tagged = (await c.size()).bytes - untagged;
    expect(tagged).toBeGreaterThan(untagged);
    await c.set('c', 'x'.repeat(100), { ttlMs: 60_000, tag: 'blk:0x01' });
    expect(await c.size()).toMatchObject({ entries: 3 });
    await c.dropTag('blk:0x01');
    expect(await c.size()).toEqual({ entries: 1, bytes: untagged });
    await c.set('a', 'y', { ttlMs: 60_000 });
    await c.set('a', 'x'.repeat(100), { ttlMs: 60_000 });
    expect(await c.size()).toEqual({ entries: 1, bytes: untagged });
    await c.close();
  });

  it('never holds more than its bound, least recently used out first', async () => {
    const maxBytes = 64 * 1024;
    const c = await make(maxBytes);
    let peak = 0;
    for (let i = 0; i < 400; i++) {
      const tag = i % 3 === 0 ? undefined : `blk:0x${(i % 17).toString(16)}`;
      await c.set(`k${i}|${Math.random()}`, 'v'.repeat(Math.floor(Math.random() * 2_000)), { ttlMs: 60_000, tag });
      if (i % 20 === 0) await c.dropTag(`blk:0x${(i % 17).toString(16)}`);
      peak = Math.max(peak, (await c.size()).bytes);
    }
    expect(peak).toBeLessThanOrEqual(maxBytes);
    expect(c.stats().evictions).toBeGreaterThan(0);
    // a key read again survives new entries that evict others
    await c.set('keep', 'x'.repeat(1_000), { ttlMs: 60_000 });
    await c.set('lose', 'x'.repeat(1_000), { ttlMs: 60_000 });
    for (let i = 0; i < 200; i++) {
      await c.get('keep');
      await c.set(`n${i}`, 'x'.repeat(1_000), { ttlMs: 60_000 });
    }
    expect((await c.get('keep'))?.value).toBeDefined();
    expect(await c.get('lose')).toBeUndefined();
    // a value larger than the whole cache is not kept
    await c.set('huge', 'x'.repeat(maxBytes), { ttlMs: 60_000 });
    expect(await c.get('huge')).toBeUndefined();
    expect((await c.size()).bytes).toBeLessThanOrEqual(maxBytes);
    await c.close();
  });
}
