import { describe, expect, it } from 'vitest';
import { defaultPlanTable } from '../accounts/defaultPlanTable.js';
import { createApiKey } from '../keys/createApiKey.js';
import { createKeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import { OPEN_SETTINGS } from '../keys/KeySettings.js';
import { KEY_FORMAT, secretMatches } from '../keys/secrets.js';
import type { Database } from './Database.js';
import { LEGACY_KEY_SCHEMA, OPERATOR_ACCOUNT_ID } from './sql.js';

/**
 * The one contract every KeyStore implementation must pass (the embedded SQLite, PostgreSQL).
 * `open` returns a fresh, empty database; `reopen` opens the same storage again (durability).
 *
 * @example
 * keyStoreContract('embedded (SQLite)', () => openEmbeddedDatabase(dir), () => openEmbeddedDatabase(dir), afterPglite);
 */
export function keyStoreContract(
  name: string,
  open: () => Promise<Database>,
  reopen: () => Promise<Database>,
  /** Runs `setupSql` on fresh storage, then opens the current database over it (migration). */
  openAfter: (setupSql: string) => Promise<Database>,
) {
  describe(`KeyStore contract: ${name}`, () => {
    it('migrates a pre-accounts key table: old keys join the operator account and keep their plan', async () => {
      const old = (key: string, plan: string, dev: boolean) =>
        `INSERT INTO api_keys (key, secret_hash, name, plan, dev) VALUES ('${key}', '${'0'.repeat(64)}', 'old', '${plan}', ${dev});`;
      const db = await openAfter(
        `${LEGACY_KEY_SCHEMA}${old('a'.repeat(32), 'free', false)}${old('b'.repeat(32), 'dev', true)}
        INSERT INTO key_usage (key, metric, value) VALUES ('${'a'.repeat(32)}', 'ipfs_stored_bytes', 7);`,
      );
      try {
        const a = await db.keys.find('a'.repeat(32));
        expect(a).toMatchObject({
          accountId: OPERATOR_ACCOUNT_ID,
          plan: 'free',
          accountPlan: 'team',
          settings: OPEN_SETTINGS,
        });
        expect(await db.keys.findDevKey()).toMatchObject({ key: 'b'.repeat(32), plan: 'dev', dev: true });
        expect(await db.keys.usage('a'.repeat(32), 'ipfs_stored_bytes')).toBe(7);
        expect((await db.accounts.findAccount(OPERATOR_ACCOUNT_ID))?.plan).toBe('team');
        // new keys after the migration have no plan unless given
        expect((await createApiKey(db.keys)).record.plan).toBeNull();
      } finally {
        await db.close();
      }
    });

    it('creates keys with hashed secrets in an account and finds them with the account plan', async () => {
      const db = await open();
      const store = db.keys;
      try {
        const acme = await db.accounts.createAccount({ name: 'Acme', plan: 'developer' });
        const { record, secret } = await createApiKey(store, { name: 'ci', accountId: acme.id });
        expect(record.key).toMatch(KEY_FORMAT);
        expect(secret).toMatch(KEY_FORMAT);
        expect(record.secretHash).not.toContain(secret);
        expect(record).toMatchObject({
          name: 'ci',
          accountId: acme.id,
          plan: null,
          accountPlan: 'developer',
          dev: false,
          revokedAt: null,
          settings: OPEN_SETTINGS,
        });
        const found = await store.find(record.key);
        expect(found).toEqual(record);
        expect(secretMatches(secret, found!.secretHash)).toBe(true);
        expect(secretMatches(`${secret.slice(0, -1)}0`, found!.secretHash)).toBe(secret.endsWith('0'));
        expect(await store.find('0'.repeat(32))).toBeUndefined();
        // the account plan is read at lookup time
        await db.accounts.updateAccount(acme.id, { plan: 'team' });
        expect((await store.find(record.key))?.accountPlan).toBe('team');
        // the default account is the operator's
        const op = await createApiKey(store, { plan: 'growth' });
        expect(op.record).toMatchObject({ accountId: OPERATOR_ACCOUNT_ID, plan: 'growth', accountPlan: 'team' });
      } finally {
        await db.close();
      }
    });

    it('rejects a duplicate key id and an unknown account', async () => {
      const db = await open();
      try {
        const { record } = await createApiKey(db.keys);
        await expect(db.keys.insert({ ...record })).rejects.toThrow();
        await expect(createApiKey(db.keys, { accountId: 'no-such-account' })).rejects.toThrow();
      } finally {
        await db.close();
      }
    });

    it('lists oldest first (all, or one account), revokes once, keeps the dev key apart', async () => {
      const db = await open();
      const store = db.keys;
      try {
        const other = await db.accounts.createAccount({ name: 'Other', plan: 'core' });
        const a = await createApiKey(store, { name: 'a' });
        const dev = await createApiKey(store, { name: 'dev', dev: true });
        const b = await createApiKey(store, { name: 'b', accountId: other.id });
        expect((await store.list()).map((k) => k.name)).toEqual(['a', 'dev', 'b']);
        expect((await store.list(OPERATOR_ACCOUNT_ID)).map((k) => k.name)).toEqual(['a', 'dev']);
        expect((await store.list(other.id)).map((k) => k.name)).toEqual(['b']);
        expect(await store.list('nobody')).toEqual([]);
        expect((await store.findDevKey())?.key).toBe(dev.record.key);
        expect(await store.revoke(a.record.key)).toBe(true);
        expect(await store.revoke(a.record.key)).toBe(false);
        expect(await store.revoke('f'.repeat(32))).toBe(false);
        expect((await store.find(a.record.key))?.revokedAt).toBeInstanceOf(Date);
        expect((await store.find(b.record.key))?.revokedAt).toBeNull();
      } finally {
        await db.close();
      }
    });

    it('updates only the fields given', async () => {
      const db = await open();
      const store = db.keys;
      try {
        const { record } = await createApiKey(store, { name: 'before', plan: 'team' });
        const settings = { ...OPEN_SETTINGS, allowedOrigins: ['https://app.example.com'], creditsPerDay: 1000 };
        const s1 = await store.update(record.key, { settings });
        expect(s1).toMatchObject({ name: 'before', plan: 'team', settings });
        const s2 = await store.update(record.key, { name: 'after' });
        expect(s2).toMatchObject({ name: 'after', plan: 'team', settings });
        const s3 = await store.update(record.key, { plan: null });
        expect(s3).toMatchObject({ name: 'after', plan: null, accountPlan: 'team', settings });
        expect(await store.find(record.key)).toEqual(s3);
        expect(await store.update('e'.repeat(32), { name: 'x' })).toBeUndefined();
        // a JWT key's PEM survives the round trip unchanged
        const jwt = {
          ...OPEN_SETTINGS,
          jwtKeys: [{ name: 'k1', pem: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n' }],
        };
        expect((await store.update(record.key, { settings: jwt }))?.settings).toEqual(jwt);
      } finally {
        await db.close();
      }
    });

    it('keys, settings and revocations survive reopening the store', async () => {
      const db = await open();
      const kept = await createApiKey(db.keys, { name: 'kept' });
      const gone = await createApiKey(db.keys, { name: 'gone' });
      await db.keys.update(kept.record.key, { settings: { ...OPEN_SETTINGS, requireSecret: true } });
      await db.keys.revoke(gone.record.key);
      await db.keys.close();
      const again = await reopen();
      try {
        const k = await again.keys.find(kept.record.key);
        expect(k?.revokedAt).toBeNull();
        expect(k?.settings.requireSecret).toBe(true);
        expect((await again.keys.find(gone.record.key))?.revokedAt).toBeInstanceOf(Date);
      } finally {
        await again.close();
      }
    });

    it('counts usage per key and metric, durably', async () => {
      const db = await open();
      const { record } = await createApiKey(db.keys);
      expect(await db.keys.usage(record.key, 'ipfs_stored_bytes')).toBe(0);
      expect(await db.keys.addUsage(record.key, 'ipfs_stored_bytes', 1000)).toBe(1000);
      expect(await db.keys.addUsage(record.key, 'ipfs_stored_bytes', 24)).toBe(1024);
      expect(await db.keys.addUsage(record.key, 'credits', 5)).toBe(5);
      await db.close();
      const again = await reopen();
      try {
        expect(await again.keys.usage(record.key, 'ipfs_stored_bytes')).toBe(1024);
        expect(await again.keys.usage(record.key, 'credits')).toBe(5);
      } finally {
        await again.close();
      }
    });

    it('the authenticator sees revocations made through it at once', async () => {
      const db = await open();
      try {
        const auth = createKeyAuthenticator(db.keys, defaultPlanTable());
        const { record } = await createApiKey(db.keys);
        // nothing decided yet: peek has no answer; once authenticated, it gives the same at once
        expect(auth.peek(record.key)).toBeUndefined();
        expect((await auth.authenticate(record.key))?.record.key).toBe(record.key);
        expect(auth.peek(record.key)?.tenant?.record.key).toBe(record.key);
        await db.keys.revoke(record.key);
        auth.forget(record.key);
        expect(auth.peek(record.key)).toBeUndefined();
        expect(await auth.authenticate(record.key)).toBeUndefined();
        // a revoked key's miss is cached too: peek says so without the store
        expect(auth.peek(record.key)).toEqual({ tenant: undefined, expires: expect.any(Number) });
        expect(await auth.authenticate('not a key')).toBeUndefined();
        expect(auth.peek('not a key')).toBeUndefined();
      } finally {
        await db.close();
      }
    });

    it('reads a key in use again before its cache entry expires, without making its requests wait', async () => {
      const db = await open();
      try {
        let t = 1_000_000;
        let finds = 0;
        const store = Object.create(db.keys) as typeof db.keys;
        store.find = (key) => {
          finds++;
          return db.keys.find(key);
        };
        const auth = createKeyAuthenticator(store, defaultPlanTable(), { hitTtlMs: 30_000, now: () => t });
        const { record } = await createApiKey(db.keys);
        expect((await auth.authenticate(record.key))?.record.key).toBe(record.key);
        t += 20_000;
        expect(auth.peek(record.key)?.tenant?.record.key).toBe(record.key);
        expect(finds).toBe(1); // two thirds of its life: the entry answers, nothing is read
        // revoked with no change notice (one lost): the entry still answers, for at most its TTL
        await db.keys.revoke(record.key);
        t += 5_000;
        // in the last part of its life: every use is answered from the entry at once, and one
        // read starts in the background
        expect(auth.peek(record.key)?.tenant?.record.key).toBe(record.key);
        expect(auth.peek(record.key)?.tenant?.record.key).toBe(record.key);
        expect((await auth.authenticate(record.key))?.record.key).toBe(record.key);
        expect(finds).toBe(2);
        // once that read is back, the revocation is seen, before the entry would have expired
        for (let i = 0; i < 200 && auth.peek(record.key)?.tenant !== undefined; i++) {
          await new Promise((r) => setTimeout(r, 10));
        }
        expect(auth.peek(record.key)).toEqual({ tenant: undefined, expires: expect.any(Number) });
        expect(await auth.authenticate(record.key)).toBeUndefined();
        expect(finds).toBe(2);
      } finally {
        await db.close();
      }
    });
  });
}
