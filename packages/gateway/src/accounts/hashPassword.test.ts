import { describe, expect, it } from 'vitest';
import { hashPassword, SCRYPT_CONCURRENCY, SCRYPT_MAX_WAITING } from './hashPassword.js';
import { PasswordWorkBusyError } from './PasswordWorkBusyError.js';
import { verifyPassword } from './verifyPassword.js';

describe('hashPassword and verifyPassword', () => {
  it('hash with the parameters in the result, verify in constant time, refuse short passwords', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'scrypt$3$8$1$AAAA$AAAA')).toBe(false);
    await expect(hashPassword('too short')).rejects.toThrow(/at least 10 characters/);
  });

  it('scrypt is bounded: beyond the runs under way and those waiting, a run is refused at once (429 busy), not queued', async () => {
    const room = SCRYPT_CONCURRENCY + SCRYPT_MAX_WAITING;
    const settledAt: Array<{ ok: boolean; at: number }> = [];
    const results = await Promise.allSettled(
      Array.from({ length: room + 5 }, (_, i) =>
        hashPassword(`password number ${i}`).then(
          (v) => {
            settledAt.push({ ok: true, at: performance.now() });
            return v;
          },
          (err: unknown) => {
            settledAt.push({ ok: false, at: performance.now() });
            throw err;
          },
        ),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(PasswordWorkBusyError);
      expect((r.reason as PasswordWorkBusyError).retryAfterSeconds).toBe(1);
    }
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(room);
    // the refusals were answered at once, before any run finished; and there is room again afterwards
    const firstDone = Math.min(...settledAt.filter((s) => s.ok).map((s) => s.at));
    expect(Math.max(...settledAt.filter((s) => !s.ok).map((s) => s.at))).toBeLessThan(firstDone);
    expect(await verifyPassword('password number 0', (results[0] as PromiseFulfilledResult<string>).value)).toBe(true);
  });
});
