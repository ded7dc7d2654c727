import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmbeddedDatabase } from '../store/embedded/openEmbeddedDatabase.js';
import { ensureOperator, OPERATOR_EMAIL } from './ensureOperator.js';

const dir = await mkdtemp(join(tmpdir(), 'nodegate-operator-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('ensureOperator', () => {
  it('creates the operator once, keeps a valid admin token, issues a fresh sign-in link each start', async () => {
    const db = await openEmbeddedDatabase(undefined);
    try {
      const first = await ensureOperator({ accounts: db.accounts, dataDir: dir, baseUrl: 'http://127.0.0.1:8550/' });
      expect(first.operatorAccountId).toBe('operator');
      expect(first.signInUrl).toMatch(/^http:\/\/127\.0\.0\.1:8550\/dashboard\/sign-in\?token=[\w-]{43}$/);
      const file = join(dir, 'admin-token');
      expect((await readFile(file, 'utf8')).trim()).toBe(first.adminToken);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await db.accounts.verifyAdminToken(first.adminToken)).toEqual({ name: 'cli' });

      const account = await db.accounts.findAccount('operator');
      expect(account).toMatchObject({ name: 'operator', plan: 'team' });
      const user = await db.accounts.findUserByEmail(OPERATOR_EMAIL);
      expect(user).toMatchObject({ operator: true, hasPassword: false });
      expect(await db.accounts.role('operator', user!.id)).toBe('owner');

      const second = await ensureOperator({ accounts: db.accounts, dataDir: dir, baseUrl: 'http://h:1' });
      expect(second.adminToken).toBe(first.adminToken);
      expect(second.signInUrl).not.toBe(first.signInUrl);
      expect(await db.accounts.members('operator')).toHaveLength(1);
      // the link signs in once
      const token = new URL(second.signInUrl!).searchParams.get('token')!;
      expect((await db.accounts.redeemSignInToken(token))?.id).toBe(user!.id);
      expect(await db.accounts.redeemSignInToken(token)).toBeUndefined();

      // a token file that no longer verifies is replaced
      await writeFile(file, 'stale\n');
      const third = await ensureOperator({ accounts: db.accounts, dataDir: dir, baseUrl: 'http://h:1', signIn: false });
      expect(third.adminToken).not.toBe('stale');
      expect(third.signInUrl).toBeUndefined();
      expect((await readFile(file, 'utf8')).trim()).toBe(third.adminToken);
    } finally {
      await db.close();
    }
  });
});
