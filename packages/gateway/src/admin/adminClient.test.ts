import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultPlanTable } from '../accounts/defaultPlanTable.js';
import { ensureOperator } from '../accounts/ensureOperator.js';
import { runKeys, UsageError } from '../cli/runKeys.js';
import { acquireDataDirLock } from '../store/acquireDataDirLock.js';
import { openEmbeddedDatabase } from '../store/embedded/openEmbeddedDatabase.js';
import { AdminApiError } from './AdminApiError.js';
import { adminClient } from './adminClient.js';
import { readAdminEndpoint } from './readAdminEndpoint.js';
import { registerAdminApi } from './registerAdminApi.js';
import { removeAdminEndpoint } from './removeAdminEndpoint.js';
import { writeAdminEndpoint } from './writeAdminEndpoint.js';

const root = await mkdtemp(join(tmpdir(), 'nodegate-admin-cli-'));
afterAll(() => rm(root, { recursive: true, force: true }));

/** Runs `nodegate keys …` through the exported function; returns exit code and printed lines. */
async function keys(sub: string, args: string[], flags: Parameters<typeof runKeys>[2]) {
  const lines: string[] = [];
  const code = await runKeys(sub, args, flags, (l) => lines.push(l));
  return { code, lines, json: () => JSON.parse(lines.join('\n')) };
}

describe('nodegate keys over the admin API', () => {
  it('with no gateway running: serves the same API in-process over the database', async () => {
    const dataDir = join(root, 'offline');
    const created = (await keys('create', [], { dataDir, name: 'ci', plan: 'team', json: true })).json();
    expect(created).toMatchObject({ name: 'ci', plan: 'team', effectivePlan: 'team', accountId: 'operator' });
    expect(created.secret).toMatch(/^[0-9a-f]{32}$/);
    expect((await stat(join(dataDir, 'admin-token'))).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dataDir, 'gateway.pid'))).toBe(false); // the lock is released

    const pem = join(root, 'jwt.pem');
    await writeFile(
      pem,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }),
    );
    const set = await keys('set', [created.key], {
      dataDir,
      allowedOrigins: 'https://App.example.com, *.example.org',
      allowedMethods: 'eth_call,eth_blockNumber',
      requireSecret: 'true',
      jwtKey: [`main=${pem}`],
      requireJwt: 'true',
      creditsPerDay: '5000',
      json: true,
    });
    expect(set.json().settings).toMatchObject({
      allowedOrigins: ['https://app.example.com', '*.example.org'],
      allowedMethods: ['eth_call', 'eth_blockNumber'],
      requireSecret: true,
      requireJwt: true,
      creditsPerDay: 5000,
    });
    expect(set.json().settings.jwtKeys[0].name).toBe('main');
    // an empty value clears
    const cleared = await keys('set', [created.key], {
      dataDir,
      allowedOrigins: '',
      creditsPerDay: '',
      plan: '',
      json: true,
    });
    expect(cleared.json()).toMatchObject({
      plan: null,
      effectivePlan: 'team',
      settings: { allowedOrigins: [], creditsPerDay: null },
    });
    const shown = await keys('show', [created.key], { dataDir });
    expect(shown.lines.join('\n')).toMatch(/allowed methods:\s+eth_call, eth_blockNumber/);
    expect(shown.lines.join('\n')).toMatch(/JWT keys:\s+main/);
    expect(shown.lines.join('\n')).not.toContain(created.secret);

    expect((await keys('revoke', [created.key], { dataDir })).lines).toEqual(['revoked']);
    const again = await keys('revoke', [created.key], { dataDir });
    expect([again.code, again.lines]).toEqual([1, ['no active key with that id']]);
    const listed = await keys('list', [], { dataDir });
    expect(listed.lines.join('\n')).toMatch(new RegExp(`${created.key}\\s+revoked`));
  });

  it('refuses bad command lines before calling anything', async () => {
    const dataDir = join(root, 'usage');
    await expect(keys('frob', [], { dataDir })).rejects.toBeInstanceOf(UsageError);
    await expect(keys('show', [], { dataDir })).rejects.toBeInstanceOf(UsageError);
    await expect(
      keys('set', ['0'.repeat(32)], { dataDir, allowedOrigins: 'https://a.example.com/path' }),
    ).rejects.toThrow('settings.allowedOrigins[0]: expected an origin like https://app.example.com or *.example.com');
    await expect(keys('set', ['0'.repeat(32)], { dataDir, requireSecret: 'yes' })).rejects.toThrow(
      '--require-secret must be true or false',
    );
  });

  it('with a gateway running: goes over HTTP to the URL in admin.json with the admin token; a stale admin.json falls back', async () => {
    const dataDir = join(root, 'running');
    await mkdir(dataDir, { recursive: true });
    const unlock = await acquireDataDirLock(dataDir);
    const db = await openEmbeddedDatabase(join(dataDir, 'db'));
    const changed: string[] = [];
    const app = Fastify();
    let url = '';
    try {
      const op = await ensureOperator({ accounts: db.accounts, dataDir, baseUrl: 'http://x' });
      await registerAdminApi(app, {
        keys: db.keys,
        accounts: db.accounts,
        plans: defaultPlanTable(),
        onKeyChanged: (k) => changed.push(k),
      });
      url = await app.listen({ host: '127.0.0.1', port: 0 });
      await writeAdminEndpoint(dataDir, url);
      expect(await readAdminEndpoint(dataDir)).toBe(url);
      expect((await stat(join(dataDir, 'admin.json'))).mode & 0o777).toBe(0o600);

      const created = (await keys('create', [], { dataDir, name: 'live', json: true })).json();
      expect(changed).toEqual([created.key]); // the running gateway made the change
      await keys('revoke', [created.key], { dataDir });
      expect(changed).toEqual([created.key, created.key]);

      // the client other tests use
      const client = adminClient(url, op.adminToken);
      const k = await client.createKey({ name: 'from client' });
      expect(
        (await client.updateKey(k.key, { settings: { allowedContracts: ['0xAB'] } })).settings.allowedContracts,
      ).toEqual(['0xab']);
      expect((await client.getKey(k.key)).name).toBe('from client');
      const err = await client.updateKey(k.key, { settings: { creditsPerDay: 0 } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AdminApiError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_request', field: 'settings.creditsPerDay' });
      const denied = await adminClient(url, 'wrong')
        .listKeys()
        .catch((e: unknown) => e);
      expect(denied).toMatchObject({ status: 401 });
      expect(String((denied as Error).message)).not.toContain('wrong');
      // --admin-url and an explicit token
      const viaFlags = await keys('list', [], {
        dataDir: join(root, 'elsewhere'),
        adminUrl: url,
        adminToken: op.adminToken,
        json: true,
      });
      expect(viaFlags.json().map((x: { name: string }) => x.name)).toContain('from client');
    } finally {
      await app.close();
      await db.close();
      await unlock();
    }
    // the gateway is gone but admin.json stayed: the CLI serves the API itself
    expect(await readAdminEndpoint(dataDir)).toBe(url);
    const offline = await keys('list', [], { dataDir, json: true });
    expect(offline.json().map((x: { name: string }) => x.name)).toEqual(['live', 'from client']);
    expect(
      await adminClient(url, 'x')
        .listKeys()
        .catch((e: AdminApiError) => e.code),
    ).toBe('unreachable');
    await removeAdminEndpoint(dataDir);
    await removeAdminEndpoint(dataDir);
    expect(await readAdminEndpoint(dataDir)).toBeUndefined();
    expect((await readFile(join(dataDir, 'admin-token'), 'utf8')).trim()).toMatch(/^[\w-]{43}$/);
  });
});
