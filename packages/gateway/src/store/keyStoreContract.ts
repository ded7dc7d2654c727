import { describe, expect, it } from 'vitest';
import { createApiKey } from '../keys/createApiKey.js';
import { createKeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import { KEY_FORMAT, secretMatches } from '../keys/secrets.js';
import type { KeyStore } from './KeyStore.js';

/**
 * The one contract every KeyStore implementation must pass (embedded PGlite, PostgreSQL).
 * `open` returns a fresh, empty store; `reopen` opens the same storage again (durability).
 */
export function keyStoreContract(name: string, open: () => Promise<KeyStore>, reopen: () => Promise<KeyStore>) {
  describe(`KeyStore contract: ${name}`, () => {
    it('creates keys with hashed secrets and finds them', async () => {
      const store = await open();
      try {
        const { record, secret } = await createApiKey(store, { name: 'ci', plan: 'team' });
        expect(record.key).toMatch(KEY_FORMAT);
        expect(secret).toMatch(KEY_FORMAT);
        expect(record.secretHash).not.toContain(secret);
        expect(record).toMatchObject({ name: 'ci', plan: 'team', dev: false, revokedAt: null });
        const found = await store.find(record.key);
        expect(found).toEqual(record);
        expect(secretMatches(secret, found!.secretHash)).toBe(true);
        expect(secretMatches(`${secret.slice(0, -1)}0`, found!.secretHash)).toBe(secret.endsWith('0'));
        expect(await store.find('0'.repeat(32))).toBeUndefined();
      } finally {
        await store.close();
      }
    });

    it('rejects a duplicate key id', async () => {
      const store = await open();
      try {
        const { record } = await createApiKey(store);
        await expect(store.insert({ ...record })).rejects.toThrow();
      } finally {
        await store.close();
      }
    });

    it('lists oldest first, revokes once, keeps the dev key apart', async () => {
      const store = await open();
      try {
        const a = await createApiKey(store, { name: 'a' });
        const dev = await createApiKey(store, { name: 'dev', dev: true });
        const b = await createApiKey(store, { name: 'b' });
        expect((await store.list()).map((k) => k.name)).toEqual(['a', 'dev', 'b']);
        expect((await store.findDevKey())?.key).toBe(dev.record.key);
        expect(await store.revoke(a.record.key)).toBe(true);
        expect(await store.revoke(a.record.key)).toBe(false);
        expect(await store.revoke('f'.repeat(32))).toBe(false);
        expect((await store.find(a.record.key))?.revokedAt).toBeInstanceOf(Date);
        expect((await store.find(b.record.key))?.revokedAt).toBeNull();
      } finally {
        await store.close();
      }
    });

    it('keys and revocations survive reopening the store', async () => {
      const store = await open();
      const kept = await createApiKey(store, { name: 'kept' });
      const gone = await createApiKey(store, { name: 'gone' });
      await store.revoke(gone.record.key);
      await store.close();
      const again = await reopen();
      try {
        expect((await again.find(kept.record.key))?.revokedAt).toBeNull();
        expect((await again.find(gone.record.key))?.revokedAt).toBeInstanceOf(Date);
      } finally {
        await again.close();
      }
    });

    it('counts usage per key and metric, durably', async () => {
      const store = await open();
      const { record } = await createApiKey(store);
      expect(await store.usage(record.key, 'ipfs_stored_bytes')).toBe(0);
      expect(await store.addUsage(record.key, 'ipfs_stored_bytes', 1000)).toBe(1000);
      expect(await store.addUsage(record.key, 'ipfs_stored_bytes', 24)).toBe(1024);
      expect(await store.addUsage(record.key, 'credits', 5)).toBe(5);
      await store.close();
      const again = await reopen();
      try {
        expect(await again.usage(record.key, 'ipfs_stored_bytes')).toBe(1024);
        expect(await again.usage(record.key, 'credits')).toBe(5);
      } finally {
        await again.close();
      }
    });

    it('the authenticator sees revocations made through it at once', async () => {
      const store = await open();
      try {
        const auth = createKeyAuthenticator(store);
        const { record } = await createApiKey(store);
        expect((await auth.authenticate(record.key))?.key).toBe(record.key);
        await store.revoke(record.key);
        auth.forget(record.key);
        expect(await auth.authenticate(record.key)).toBeUndefined();
        expect(await auth.authenticate('not a key')).toBeUndefined();
      } finally {
        await store.close();
      }
    });
  });
}
