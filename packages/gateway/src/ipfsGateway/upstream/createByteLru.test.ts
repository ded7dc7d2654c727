import { describe, expect, it } from 'vitest';
import { createByteLru } from './createByteLru.js';

const of = (n: number) => new Uint8Array(n);

describe('createByteLru', () => {
  it('drops the least recently used past its bound, a read making an entry recent', () => {
    const lru = createByteLru(300);
    lru.set('a', of(100));
    lru.set('b', of(100));
    lru.set('c', of(100));
    lru.get('a');
    lru.set('d', of(100));
    expect(lru.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => lru.get(k)?.byteLength)).toEqual([100, 100, 100]);
    expect(lru.bytes).toBe(300);
  });

  it('counts a replaced entry once, and keeps nothing larger than its bound', () => {
    const lru = createByteLru(300);
    lru.set('a', of(100));
    lru.set('a', of(50));
    expect(lru.bytes).toBe(50);
    lru.set('big', of(301));
    expect(lru.get('big')).toBeUndefined();
    expect(lru.bytes).toBeLessThanOrEqual(300);
  });
});
