import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { OPERATOR_ACCOUNT_ID } from '../store/sql.js';
import { adminBrowser } from '../test-support/adminBrowser.js';
import { startTestGateway, type TestGateway } from '../test-support/startTestGateway.js';
import { admin, createTestKey, setKeySettings } from '../test-support/testKeys.js';

// What the dashboard's request explorer and storage panels read, on a real gateway (anvil and
// the embedded IPFS node, the embedded usage store): one row per refused IPFS request, a request
// opened by its id (every call of a batch, bytes included; another key's or account's id is not
// found), an account's storage against the per-key quota, and the methods the contract
// allowlist applies to, read from the method tables and matching what the gateway refuses.

let t: TestGateway;
let ipfsUrl: string;
const PER_KEY = 1_000_000;

interface Row {
  requestId: string;
  method: string;
  transport: string;
  status: number;
  errorCode: number | null;
  refusal: string | null;
  credits: number;
  bytesIn: number;
  bytesOut: number;
  upstream: string | null;
}

beforeAll(async () => {
  t = await startTestGateway({
    extra: {
      ipfs: {
        pathPrefix: '/ipfs',
        upstream: { name: 'ipfs-node', embedded: 'ipfs-node' },
        maxStoredBytesPerKey: PER_KEY,
      },
    },
  });
  ipfsUrl = t.gw.ipfs!;
});

afterAll(async () => {
  await t?.stop();
});

const ipfs = async (auth: string, path: string, headers: Record<string, string> = {}, body?: FormData) => {
  const res = await fetch(`${ipfsUrl}/api/v0/${path}`, {
    method: 'POST',
    headers: { authorization: auth, ...headers },
    ...(body ? { body } : {}),
  });
  return { status: res.status, text: await res.text() };
};

const rpc = async (key: string, body: unknown) => {
  const res = await fetch(`${t.gw.networks['eth-devnet']!.http}/v3/${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, requestId: res.headers.get('x-request-id'), json: (await res.json()) as any };
};

describe('the request explorer through the admin API', () => {
  it('an IPFS request refused by the origin allowlist is one row (not the command and a "(refused)" row)', async () => {
    const a = await createTestKey(t.gw, { settings: { allowedOrigins: ['https://app.example.com'] } });
    const auth = basicAuth(a.key, a.secret);
    expect((await ipfs(auth, 'version', { origin: 'https://evil.example.com' })).status).toBe(403);
    expect((await ipfs(auth, 'version', { origin: 'https://app.example.com' })).status).toBe(200);
    await t.gw.flushUsage();
    const rows = (await admin(t.gw, 'GET', `/keys/${a.key}/requests?limit=50`)) as Row[];
    expect(rows).toHaveLength(2);
    const refused = rows.filter((r) => r.status === 403);
    expect(refused).toEqual([
      expect.objectContaining({ transport: 'ipfs', status: 403, errorCode: -403, refusal: 'origin', credits: 0 }),
    ]);
    expect(rows.filter((r) => r.status === 200)).toEqual([
      expect.objectContaining({ method: 'version', transport: 'ipfs', errorCode: null, refusal: null }),
    ]);
    // a refusal of the command itself (the key's method allowlist) is one row too, named after the command
    await setKeySettings(t.gw, a.key, { allowedOrigins: [], allowedMethods: ['version'] });
    expect((await ipfs(auth, 'id')).status).toBe(403);
    await t.gw.flushUsage();
    const after = (await admin(t.gw, 'GET', `/keys/${a.key}/requests?limit=50`)) as Row[];
    expect(after).toHaveLength(3);
    expect(after[0]).toMatchObject({ method: 'id', status: 403, errorCode: -403, refusal: 'method' });
  });

  it('opens one request by its id: every call of a batch, with bytes; another key or account does not find it', async () => {
    const a = await createTestKey(t.gw);
    const b = await createTestKey(t.gw);
    const batch = await rpc(a.key, [
      { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.requestId).toMatch(/\S/);
    const single = await rpc(a.key, { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['0x12'] });
    expect(single.json.error.code).toBe(-32602);
    await t.gw.flushUsage();

    const opened = await admin(t.gw, 'GET', `/keys/${a.key}/requests/${batch.requestId}`);
    expect(opened.requestId).toBe(batch.requestId);
    expect(opened.calls.map((c: Row) => c.method)).toEqual(['eth_blockNumber', 'eth_chainId']);
    for (const c of opened.calls as Row[]) {
      expect(c).toMatchObject({ requestId: batch.requestId, transport: 'http', status: 200, errorCode: null });
      expect(c.upstream).toBe('anvil');
      expect(c.bytesIn).toBeGreaterThan(0);
      expect(c.bytesOut).toBeGreaterThan(0);
    }
    const invalid = await admin(t.gw, 'GET', `/keys/${a.key}/requests/${single.requestId}`);
    expect(invalid.calls).toEqual([
      expect.objectContaining({ method: 'eth_getBalance', status: 200, errorCode: -32602, upstream: null }),
    ]);
    // the list gives the bytes too
    const listed = (await admin(t.gw, 'GET', `/keys/${a.key}/requests?limit=10`)) as Row[];
    expect(listed.find((r) => r.method === 'eth_chainId')!.bytesOut).toBe(opened.calls[1].bytesOut);

    // another key of the same account: its log does not hold that request
    const other = await fetch(`${t.gw.admin.url}/keys/${b.key}/requests/${batch.requestId}`, {
      headers: { authorization: `Bearer ${t.gw.admin.token}` },
    });
    expect(other.status).toBe(404);
    expect(((await other.json()) as any).error.code).toBe('not_found');
    const unknown = await fetch(`${t.gw.admin.url}/keys/${a.key}/requests/no-such-request`, {
      headers: { authorization: `Bearer ${t.gw.admin.token}` },
    });
    expect(unknown.status).toBe(404);

    // a member of another account: neither the key nor its request is found
    const acct = await admin(t.gw, 'POST', '/accounts', { name: 'other account' });
    const invitation = await admin(t.gw, 'POST', `/accounts/${acct.id}/members`, {
      email: 'mallory@example.com',
      role: 'owner',
    });
    const mallory = adminBrowser(t.gw.admin.url);
    expect((await mallory.accept(invitation.token, 'mallory password 1')).status).toBe(200);
    expect((await mallory.call('GET', `/keys/${a.key}/requests/${batch.requestId}`)).status).toBe(404);
    const own = await mallory.call('POST', `/accounts/${acct.id}/keys`, { name: 'mallory' });
    expect(own.status).toBe(201);
    expect((await mallory.call('GET', `/keys/${own.json.key}/requests/${batch.requestId}`)).status).toBe(404);
    expect((await mallory.call('GET', `/accounts/${OPERATOR_ACCOUNT_ID}/storage`)).status).toBe(404);
    const theirs = await mallory.call('GET', `/accounts/${acct.id}/storage`);
    expect(theirs.status).toBe(200);
    expect(theirs.json).toMatchObject({ accountId: acct.id, activeKeys: 1, storedBytes: 0 });
  });

  it("gives an account's stored bytes against the per-key quota, and what the quota adds up to", async () => {
    const acct = await admin(t.gw, 'POST', '/accounts', { name: 'storage account' });
    const one = await createTestKey(t.gw, { accountId: acct.id, name: 'one' });
    const two = await createTestKey(t.gw, { accountId: acct.id, name: 'two' });
    const gone = await createTestKey(t.gw, { accountId: acct.id, name: 'revoked' });
    await admin(t.gw, 'DELETE', `/keys/${gone.key}`);
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(4_000, 3)]), 'four-k.bin');
    const added = await ipfs(basicAuth(one.key, one.secret), 'add', {}, form);
    expect(added.status).toBe(200);
    const size = Number((JSON.parse(added.text.trim().split('\n').at(-1)!) as { Size: string }).Size);

    const storage = await admin(t.gw, 'GET', `/accounts/${acct.id}/storage`);
    expect(storage).toEqual({
      accountId: acct.id,
      storedBytes: size,
      activeKeys: 2,
      maxStoredBytesPerKey: PER_KEY,
      maxStoredBytes: 2 * PER_KEY,
      keys: expect.arrayContaining([
        { key: one.key, name: 'one', storedBytes: size },
        { key: two.key, name: 'two', storedBytes: 0 },
      ]),
    });
    expect(storage.keys).toHaveLength(2);
    // the key's own page: its bytes against its own quota
    expect(await admin(t.gw, 'GET', `/keys/${one.key}/storage`)).toEqual({
      key: one.key,
      storedBytes: size,
      maxStoredBytes: PER_KEY,
    });
  });
});

describe('GET /admin/api/v1/restrictions', () => {
  it('lists the methods the contract allowlist applies to, from the method tables', async () => {
    const view = await admin(t.gw, 'GET', '/restrictions');
    const byName = new Map<string, any>(view.contracts.methods.map((m: any) => [m.method, m]));
    for (const m of ['eth_getBalance', 'eth_getCode', 'eth_getTransactionCount', 'eth_getStorageAt', 'eth_getProof']) {
      expect(byName.get(m)).toMatchObject({ family: 'eth', readsAccount: true });
    }
    for (const m of ['eth_call', 'eth_estimateGas', 'eth_createAccessList', 'eth_getLogs', 'eth_newFilter']) {
      expect(byName.get(m)).toMatchObject({ family: 'eth', readsAccount: false });
    }
    expect(byName.get('eth_subscribe')).toMatchObject({ family: 'eth' });
    expect(byName.get('starknet_call')).toMatchObject({
      family: 'starknet',
      aliases: ['stk_call'],
      readsAccount: false,
    });
    expect(byName.get('starknet_getNonce')).toMatchObject({ readsAccount: true, aliases: ['stk_getNonce'] });
    expect(byName.get('starknet_getEvents')).toMatchObject({ readsAccount: false });
    for (const m of ['eth_blockNumber', 'eth_sendRawTransaction', 'eth_getTransactionByHash', 'starknet_blockNumber']) {
      expect(byName.has(m)).toBe(false);
    }
    expect(view.contracts.refusedPrefixes).toEqual([
      { prefix: 'anvil_', family: 'eth', devOnly: true },
      { prefix: 'evm_', family: 'eth', devOnly: true },
    ]);
  });

  it('matches what the gateway does: a listed method is checked (a wallet address too), an unlisted one is not', async () => {
    const wallet = '0x00000000000000000000000000000000000000aa';
    const token = '0x00000000000000000000000000000000000000bb';
    const k = await createTestKey(t.gw, { settings: { allowedContracts: [token] } });
    const view = await admin(t.gw, 'GET', '/restrictions');
    const listed = new Set(view.contracts.methods.map((m: any) => m.method));
    const call = (method: string, params: unknown[]) => rpc(k.key, { jsonrpc: '2.0', id: 1, method, params });
    // eth_getBalance of a plain wallet address: refused until the wallet is on the list
    expect(listed.has('eth_getBalance')).toBe(true);
    const refused = await call('eth_getBalance', [wallet, 'latest']);
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe(-32002);
    expect((await call('eth_getBalance', [token, 'latest'])).json.result).toMatch(/^0x/);
    expect(listed.has('eth_getTransactionCount')).toBe(true);
    expect((await call('eth_getTransactionCount', [wallet, 'latest'])).status).toBe(403);
    await setKeySettings(t.gw, k.key, { allowedContracts: [token, wallet] });
    expect((await call('eth_getBalance', [wallet, 'latest'])).json.result).toMatch(/^0x/);
    // a method the list does not name is not checked
    expect(listed.has('eth_blockNumber')).toBe(false);
    expect((await call('eth_blockNumber', [])).json.result).toMatch(/^0x/);
    expect(listed.has('eth_getTransactionByHash')).toBe(false);
    const tx = await call('eth_getTransactionByHash', [`0x${'1'.repeat(64)}`]);
    expect(tx.status).toBe(200);
    expect(tx.json.error).toBeUndefined();
  });

  it('needs a caller (401 without a session or token)', async () => {
    expect((await fetch(`${t.gw.admin.url}/restrictions`)).status).toBe(401);
  });
});
