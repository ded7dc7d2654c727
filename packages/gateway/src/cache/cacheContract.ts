import { expect, it } from 'vitest';
import type { ResponseCache } from './ResponseCache.js';

/**
 * The contract every ResponseCache keeps, run against each implementation (memory, Redis):
 * get what was set, miss what was not, expire after the TTL, drop by tag without touching the
 * other entries, overwrite in place.
 */
export function cacheContract(make: () => Promise<ResponseCache>): void {
  it('returns what was set and misses what was not', async () => {
    const c = await make();
    await c.set('n|eth_chainId|[]', '"0x1"', { ttlMs: 60_000 });
    expect(await c.get('n|eth_chainId|[]')).toBe('"0x1"');
    expect(await c.get('n|eth_chainId|["x"]')).toBeUndefined();
    expect(c.stats().hits).toBeGreaterThanOrEqual(1);
    expect(c.stats().misses).toBeGreaterThanOrEqual(1);
    await c.close();
  });

  it('forgets an entry after its TTL', async () => {
    const c = await make();
    await c.set('ttl', '1', { ttlMs: 50 });
    expect(await c.get('ttl')).toBe('1');
    await new Promise((r) => setTimeout(r, 120));
    expect(await c.get('ttl')).toBeUndefined();
    await c.close();
  });

  it('drops every entry of a tag and only those', async () => {
    const c = await make();
    await c.set('a', '1', { ttlMs: 60_000, tag: 'block:0xaa' });
    await c.set('b', '2', { ttlMs: 60_000, tag: 'block:0xaa' });
    await c.set('c', '3', { ttlMs: 60_000, tag: 'block:0xbb' });
    await c.set('d', '4', { ttlMs: 60_000 });
    expect(await c.dropTag('block:0xaa')).toBe(2);
    expect(await c.get('a')).toBeUndefined();
    expect(await c.get('b')).toBeUndefined();
    expect(await c.get('c')).toBe('3');
    expect(await c.get('d')).toBe('4');
    expect(await c.dropTag('block:0xaa')).toBe(0);
    await c.close();
  });

  it('overwrites an entry in place', async () => {
    const c = await make();
    await c.set('k', 'old', { ttlMs: 60_000 });
    await c.set('k', 'new', { ttlMs: 60_000 });
    expect(await c.get('k')).toBe('new');
    await c.close();
  });
}
