import { expect, it } from 'vitest';
import type { CacheGenerations } from './CacheGenerations.js';

/**
 * The contract of `CacheGenerations`, run against each implementation: a network starts at 0,
 * each bump moves it on, networks are apart, and two handles on one store (two gateway
 * instances) agree. `make()` gives handles on one fresh store.
 */
export function generationsContract(make: () => Promise<() => CacheGenerations>): void {
  it('starts at 0, moves on with each bump, one network at a time', async () => {
    const open = await make();
    const g = open();
    expect(await g.current('a')).toBe(0);
    await g.bump('a');
    const one = await g.current('a');
    await g.bump('a');
    expect(await g.current('a')).toBeGreaterThan(one);
    expect(one).toBeGreaterThan(0);
    expect(await g.current('b')).toBe(0);
  });

  it('two handles on one store see each other bump', async () => {
    const open = await make();
    const first = open();
    const second = open();
    const before = await second.current('dev');
    await first.bump('dev');
    expect(await second.current('dev')).not.toBe(before);
  });
}
