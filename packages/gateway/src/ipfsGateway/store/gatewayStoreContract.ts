import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSqlPinStore } from '../../ipfs/pins/createSqlPinStore.js';
import { createApiKey } from '../../keys/createApiKey.js';
import type { Database } from '../../store/Database.js';
import { createSqlGatewayStore } from './createSqlGatewayStore.js';

/**
 * The contract every {@link GatewayStore} passes, over a real {@link Database} (the embedded
 * SQLite, PostgreSQL): `open` returns a fresh database (its accounts and keys tables ready).
 *
 * @example
 * gatewayStoreContract('embedded (SQLite)', () => openEmbeddedDatabase(undefined));
 */
export function gatewayStoreContract(name: string, open: () => Promise<Database>) {
  const hex = (n: number) => randomBytes(n).toString('hex');
  const setup = async () => {
    const db = await open();
    const store = await createSqlGatewayStore(db.sql);
    const pins = await createSqlPinStore(db.sql);
    const a = await db.accounts.createAccount({ name: 'a', plan: 'core' });
    const b = await db.accounts.createAccount({ name: 'b', plan: 'core' });
    return { db, store, pins, a, b };
  };

  describe(`GatewayStore contract: ${name}`, () => {
    it('creates, finds, lists, changes and removes gateways; names are unique on the gateway', async () => {
      const { db, store, a, b } = await setup();
      try {
        const one = await store.insert({
          id: `gw_${hex(12)}`,
          name: 'app-one',
          accountId: a.id,
          mode: 'restricted',
          allowedOrigins: [],
        });
        expect(one).toMatchObject({ name: 'app-one', accountId: a.id, mode: 'restricted', allowedOrigins: [] });
        expect(one!.createdAt).toBeInstanceOf(Date);
        expect(Number.isNaN(one!.createdAt.getTime())).toBe(false);
        // the same name in another account is refused (it is a host name)
        expect(
          await store.insert({
            id: `gw_${hex(12)}`,
            name: 'app-one',
            accountId: b.id,
            mode: 'open',
            allowedOrigins: [],
          }),
        ).toBeUndefined();
        const two = await store.insert({
          id: `gw_${hex(12)}`,
          name: 'app-two',
          accountId: a.id,
          mode: 'open',
          allowedOrigins: ['*.example.com'],
        });
        const other = await store.insert({
          id: `gw_${hex(12)}`,
          name: 'other',
          accountId: b.id,
          mode: 'restricted',
          allowedOrigins: [],
        });
        expect((await store.list(a.id)).map((g) => g.name)).toEqual(['app-one', 'app-two']);
        expect((await store.list(b.id)).map((g) => g.name)).toEqual(['other']);
        expect((await store.list()).map((g) => g.name)).toEqual(['app-one', 'app-two', 'other']);
        expect(await store.findByName('app-two')).toEqual(two);
        expect(await store.find(two!.id)).toEqual(two);
        expect(await store.findByName('nope')).toBeUndefined();

        const changed = await store.update(one!.id, { mode: 'open' });
        expect(changed).toMatchObject({ mode: 'open', allowedOrigins: [] });
        const origins = await store.update(one!.id, { allowedOrigins: ['https://app.example.com'] });
        expect(origins).toMatchObject({ mode: 'open', allowedOrigins: ['https://app.example.com'] });
        expect(await store.update('gw_missing', { mode: 'open' })).toBeUndefined();

        await store.insertToken({ id: `gwt_${hex(8)}`, gatewayId: other!.id, name: 't', tokenHash: hex(32) });
        expect(await store.remove(other!.id)).toBe(true);
        expect(await store.remove(other!.id)).toBe(false);
        expect(await store.find(other!.id)).toBeUndefined();
        expect(await store.listTokens(other!.id)).toEqual([]);
      } finally {
        await db.close();
      }
    });

    it('keeps tokens per gateway by their hash only; one gateway’s token is not another’s', async () => {
      const { db, store, a } = await setup();
      try {
        const g1 = (await store.insert({
          id: `gw_${hex(12)}`,
          name: 'tok-one',
          accountId: a.id,
          mode: 'restricted',
          allowedOrigins: [],
        }))!;
        const g2 = (await store.insert({
          id: `gw_${hex(12)}`,
          name: 'tok-two',
          accountId: a.id,
          mode: 'restricted',
          allowedOrigins: [],
        }))!;
        const hash = hex(32);
        const t = await store.insertToken({ id: `gwt_${hex(8)}`, gatewayId: g1.id, name: 'ci', tokenHash: hash });
        expect(t).toMatchObject({ gatewayId: g1.id, name: 'ci' });
        expect(JSON.stringify(await store.listTokens(g1.id))).not.toContain(hash);
        expect(await store.hasToken(g1.id, hash)).toBe(true);
        expect(await store.hasToken(g2.id, hash)).toBe(false);
        expect(await store.hasToken(g1.id, hex(32))).toBe(false);
        expect(await store.removeToken(g2.id, t.id)).toBe(false);
        expect(await store.removeToken(g1.id, t.id)).toBe(true);
        expect(await store.hasToken(g1.id, hash)).toBe(false);
        expect(await store.listTokens(g1.id)).toEqual([]);
      } finally {
        await db.close();
      }
    });

    it("answers whether an active key of the account pins a CID: not another account's pins, not a revoked key's", async () => {
      const { db, store, pins, a, b } = await setup();
      try {
        const ka = (await createApiKey(db.keys, { accountId: a.id })).record.key;
        const kb = (await createApiKey(db.keys, { accountId: b.id })).record.key;
        const gone = (await createApiKey(db.keys, { accountId: a.id })).record.key;
        const [root, direct, theirs, revoked] = [hex(8), hex(8), hex(8), hex(8)].map((h) => `bafy${h}`) as [
          string,
          string,
          string,
          string,
        ];
        await pins.add(ka, [
          { cid: root, type: 'recursive', size: 10 },
          { cid: direct, type: 'direct', size: 1 },
        ]);
        await pins.add(kb, [{ cid: theirs, type: 'recursive', size: 10 }]);
        await pins.add(gone, [{ cid: revoked, type: 'recursive', size: 10 }]);
        expect(await db.keys.revoke(gone)).toBe(true);

        expect(await store.pinnedByAccount(a.id, [root])).toBe(true);
        expect(await store.pinnedByAccount(a.id, ['QmOther', root])).toBe(true);
        expect(await store.pinnedByAccount(a.id, [direct])).toBe(true);
        expect(await store.pinnedByAccount(a.id, [direct], true)).toBe(false);
        expect(await store.pinnedByAccount(a.id, [root], true)).toBe(true);
        expect(await store.pinnedByAccount(a.id, [theirs])).toBe(false);
        expect(await store.pinnedByAccount(b.id, [theirs])).toBe(true);
        expect(await store.pinnedByAccount(a.id, [revoked])).toBe(false);
        expect(await store.pinnedByAccount(a.id, [])).toBe(false);
        expect(await store.recursiveRoots(a.id, 10)).toEqual([root]);
        expect(await store.recursiveRoots(b.id, 10)).toEqual([theirs]);
      } finally {
        await db.close();
      }
    });
  });
}
