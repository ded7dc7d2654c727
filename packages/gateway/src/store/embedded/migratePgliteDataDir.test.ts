import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqlPinStore } from '../../ipfs/pins/createSqlPinStore.js';
import { createApiKey } from '../../keys/createApiKey.js';
import { OPEN_SETTINGS } from '../../keys/KeySettings.js';
import { openSqlUsageStore } from '../../usage/openSqlUsageStore.js';
import { aggregate, usageEvent } from '../../usage/usageStoreContract.js';
import type { Database } from '../Database.js';
import { openDatabase } from '../openDatabase.js';
import { EMBEDDED_DB_FILE, openEmbeddedDatabase } from './openEmbeddedDatabase.js';

const root = await mkdtemp(join(tmpdir(), 'nodegate-migrate-'));
let n = 0;
afterAll(() => rm(root, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 0, 1);
const M = 60_000;
const config = { database: { kind: 'embedded' as const, queryTimeoutMs: 5_000 } };

/**
 * A data directory as an earlier version left it: PGlite in `<dataDir>/db`, written through the
 * stores over PostgreSQL's statements (what that version ran), with a bit of everything.
 */
async function earlierDataDir() {
  const dataDir = join(root, `data${n++}`);
  const old = await openEmbeddedDatabase(join(dataDir, 'db'), { engine: 'pglite' });
  expect(old.sql.dialect).toBe('postgres');
  const acme = await old.accounts.createAccount({ name: 'Acme', plan: 'core' });
  const first = await createApiKey(old.keys, { name: 'first', accountId: acme.id });
  const second = await createApiKey(old.keys, { name: 'second', accountId: acme.id, plan: 'growth' });
  const dev = await createApiKey(old.keys, { name: 'dev', dev: true });
  await old.keys.update(first.record.key, {
    settings: { ...OPEN_SETTINGS, allowedOrigins: ['https://app.example.com'], creditsPerDay: 1234 },
  });
  await old.keys.revoke(second.record.key);
  await old.keys.addUsage(first.record.key, 'ipfs_stored_bytes', 4096);
  const alice = await old.accounts.createUser({ email: 'alice@example.com', password: 'correct horse battery' });
  await old.accounts.addMember(acme.id, alice.id, 'owner');
  const session = await old.accounts.createSession(alice.id);
  const invited = await old.accounts.createInvitation({
    accountId: acme.id,
    email: 'bob@example.com',
    role: 'viewer',
    invitedBy: alice.id,
  });
  const admin = await old.accounts.createAdminToken('ci');
  const usage = await openSqlUsageStore(old.sql);
  await usage.write({
    aggregates: [aggregate({ minute: T0, key: first.record.key, accountId: acme.id, requests: 7, credits: 70 })],
    errors: [
      {
        minute: T0,
        key: first.record.key,
        accountId: acme.id,
        network: 'eth-devnet',
        status: 429,
        errorCode: null,
        count: 2,
      },
    ],
    recent: [usageEvent({ key: first.record.key, accountId: acme.id, at: T0 + 5, failover: 'partner', upstream: 'p' })],
  });
  const pins = await createSqlPinStore(old.sql);
  await pins.add(first.record.key, [{ cid: 'bafkmigrated', type: 'recursive', size: 4096 }]);
  await pins.addUnpinned(first.record.key, 10);
  const before = {
    keys: await old.keys.list(),
    accounts: await old.accounts.listAccounts(),
    members: await old.accounts.members(acme.id),
    invitations: await old.accounts.listInvitations(acme.id),
    totals: await usage.totals({ key: first.record.key, from: T0, to: T0 + M }),
    errors: await usage.errorsByStatus({ key: first.record.key, from: T0, to: T0 + M }),
    recent: await usage.recentRequests(first.record.key, { limit: 10 }),
    pins: await pins.list(first.record.key),
  };
  await old.close();
  return { dataDir, acme, first, dev, alice, session, invited: invited!, admin, before };
}

describe('a data directory of an earlier version (PGlite) is migrated to SQLite at the first start', () => {
  it('keeps every key, account, user, session, invitation, admin token, usage row and pin; the old database is kept beside it', async () => {
    const old = await earlierDataDir();
    const db: Database = await openDatabase(config, old.dataDir);
    try {
      expect(db.sql.dialect).toBe('sqlite');
      expect(existsSync(join(old.dataDir, 'db', EMBEDDED_DB_FILE))).toBe(true);
      expect(existsSync(join(old.dataDir, 'db', 'PG_VERSION'))).toBe(false);
      expect(existsSync(join(old.dataDir, 'db.pglite', 'PG_VERSION'))).toBe(true);
      expect(existsSync(join(old.dataDir, 'db.migrating'))).toBe(false);
      // private, as the rest of the data directory
      for (const dir of ['db', 'db.pglite']) expect((await stat(join(old.dataDir, dir))).mode & 0o077).toBe(0);
      for (const f of await readdir(join(old.dataDir, 'db'))) {
        expect((await stat(join(old.dataDir, 'db', f))).mode & 0o077).toBe(0);
      }

      const usage = await openSqlUsageStore(db.sql);
      const pins = await createSqlPinStore(db.sql);
      const key = old.first.record.key;
      expect({
        keys: await db.keys.list(),
        accounts: await db.accounts.listAccounts(),
        members: await db.accounts.members(old.acme.id),
        invitations: await db.accounts.listInvitations(old.acme.id),
        totals: await usage.totals({ key, from: T0, to: T0 + M }),
        errors: await usage.errorsByStatus({ key, from: T0, to: T0 + M }),
        recent: await usage.recentRequests(key, { limit: 10 }),
        pins: await pins.list(key),
      }).toEqual(old.before);
      expect((await db.keys.findDevKey())?.key).toBe(old.dev.record.key);
      expect(await db.keys.usage(key, 'ipfs_stored_bytes')).toBe(4096);
      expect(await pins.storedBytes(key)).toBe(4096 + 10);
      // secrets still verify: the password, the session, the invitation, the admin token
      expect((await db.accounts.verifyPassword('alice@example.com', 'correct horse battery'))?.id).toBe(old.alice.id);
      expect((await db.accounts.findSession(old.session.id))?.user.id).toBe(old.alice.id);
      expect((await db.accounts.findInvitation(old.invited.token))?.email).toBe('bob@example.com');
      expect(await db.accounts.verifyAdminToken(old.admin.token)).toEqual({ name: 'ci' });
      // and the migrated database goes on: new rows after the old ones
      const later = await createApiKey(db.keys, { name: 'later', accountId: old.acme.id });
      expect((await db.keys.list(old.acme.id)).map((k) => k.name)).toEqual(['first', 'second', 'later']);
      expect(later.record.accountPlan).toBe('core');
    } finally {
      await db.close();
    }
    // a second start opens SQLite without migrating again
    const again = await openDatabase(config, old.dataDir);
    try {
      expect((await again.keys.list()).length).toBe(4);
      expect(existsSync(join(old.dataDir, 'db.pglite-2'))).toBe(false);
    } finally {
      await again.close();
    }
  });

  it('finishes a migration cut short between its two renames, and redoes one cut short before', async () => {
    const old = await earlierDataDir();
    const db = join(old.dataDir, 'db');
    // cut short before the end: a partial new directory beside the untouched PGlite one
    await openEmbeddedDatabase(`${db}.migrating`).then((d) => d.close());
    const first = await openDatabase(config, old.dataDir);
    await first.close();
    // cut short between the renames: the old one renamed, the new one complete but not in place
    await rename(db, `${db}.migrating`);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(`${db}.migrating`, 'MIGRATED'), 'done\n');
    const again = await openDatabase(config, old.dataDir);
    try {
      expect((await again.keys.find(old.first.record.key))?.name).toBe('first');
      expect(existsSync(join(db, 'MIGRATED'))).toBe(false);
      expect(existsSync(`${db}.migrating`)).toBe(false);
    } finally {
      await again.close();
    }
  });
});
