import { KeyedMutex, Mutex } from '../../src/lib/mutex';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Mutex', () => {
  it('runs read-modify-write sections one at a time, so no update is lost', async () => {
    const lock = new Mutex();
    let stored = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        lock.run(async () => {
          const v = stored;
          await tick();
          stored = v + 1;
        }),
      ),
    );
    expect(stored).toBe(20);
  });
  it('keeps going after a section throws', async () => {
    const lock = new Mutex();
    await expect(lock.run(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(lock.run(() => 1)).resolves.toBe(1);
  });
  it('serialises per key only', async () => {
    const locks = new KeyedMutex();
    const order: string[] = [];
    await Promise.all([
      locks.run('a', async () => {
        await tick();
        order.push('a1');
      }),
      locks.run('b', async () => {
        order.push('b1');
      }),
      locks.run('a', async () => {
        order.push('a2');
      }),
    ]);
    expect(order).toEqual(['b1', 'a1', 'a2']);
  });
});
