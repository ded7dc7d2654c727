import { randomBytes } from 'node:crypto';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KuboRPCClient } from 'kubo-rpc-client';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import type { GatewayView } from './admin/gatewaySchemas.js';
import { type GatewayTestbed, startGatewayTestbed } from './startGatewayTestbed.js';

// Two accounts, each with its own key, content and dedicated gateway, on one gateway and one IPFS
// node: what one account pinned is never served by the other's restricted gateway, tokens and
// origins open a gateway only for their own, bandwidth is counted and held per account.

const TINY_BANDWIDTH = 300_000;

let tb: GatewayTestbed;
let kuboB: KuboRPCClient;
let keyB: string;
let accountB: string;
let gwA: GatewayView;
let gwB: GatewayView;
let fileA: string;
let dirA: string;
let leafA: string;
let fileB: string;
let unpinned: string;
let bigB: string;
const BIG_B = randomBytes(200_000);

beforeAll(async () => {
  tb = await startGatewayTestbed({
    extra: {
      plans: {
        tiny: { creditsPerSecond: 1_000, creditsPerDay: 1_000_000, gatewayBandwidthPerDay: TINY_BANDWIDTH },
        slow: { creditsPerSecond: 3, creditsPerDay: 1_000_000 },
      },
    },
  });
  gwA = tb.dev;
  const b = await tb.admin.createAccount({ name: 'tenant b', plan: 'tiny' });
  accountB = b.id;
  const created = await tb.admin.createKey({ accountId: b.id, name: 'b' });
  keyB = created.key;
  kuboB = tb.kuboOf(basicAuth(created.key, created.secret));
  gwB = await tb.admin.request<GatewayView>('POST', `/accounts/${b.id}/gateways`, { name: 'bee' });

  fileA = (await tb.kubo.add(`account A's file ${randomBytes(8).toString('hex')}\n`, { cidVersion: 1 })).cid.toString();
  for await (const r of tb.kubo.addAll(
    [
      { path: 'dir/one.txt', content: Buffer.from('one\n') },
      { path: 'dir/two.txt', content: randomBytes(300_000) },
    ],
    { cidVersion: 1, rawLeaves: true },
  )) {
    if (r.path === 'dir') dirA = r.cid.toString();
  }
  for await (const ref of tb.kubo.refs(`${dirA}/two.txt`)) leafA = ref.ref;
  fileB = (await kuboB.add(`account B's file ${randomBytes(8).toString('hex')}\n`, { cidVersion: 1 })).cid.toString();
  bigB = (await kuboB.add(BIG_B, { cidVersion: 1 })).cid.toString();
  unpinned = (
    await tb.kubo.add(`nobody pins this ${randomBytes(8).toString('hex')}\n`, { cidVersion: 1, pin: false })
  ).cid.toString();
}, 120_000);

afterAll(async () => {
  await tb?.stop();
});

const on = (gw: GatewayView, path: string, headers: Record<string, string> = {}) =>
  tb.get(`/ipfs-gateway/${gw.name}${path}`, { headers });

describe('restricted gateways serve their own account’s pins only', () => {
  it("each gateway serves its account's pinned file and refuses the other's (403, nothing fetched for it)", async () => {
    expect((await on(gwA, `/ipfs/${fileA}`)).status).toBe(200);
    expect((await on(gwB, `/ipfs/${fileB}`)).status).toBe(200);
    const refused = await on(gwA, `/ipfs/${fileB}`);
    expect(refused.status).toBe(403);
    expect(refused.body.toString()).toContain('serves only content its account pinned');
    expect((await on(gwB, `/ipfs/${fileA}`)).status).toBe(403);
    // the node has it, nobody pins it: refused alike (a restricted gateway reveals nothing about the node)
    expect((await on(gwA, `/ipfs/${unpinned}`)).status).toBe(403);
    expect((await on(gwA, `/ipfs/${unpinned}?format=raw`)).status).toBe(403);
  });

  it("paths under a pinned root and blocks under a recursive pin are served; another account's gateway refuses them", async () => {
    expect((await on(gwA, `/ipfs/${dirA}/one.txt`)).body.toString()).toBe('one\n');
    const leaf = await on(gwA, `/ipfs/${leafA}?format=raw`);
    expect(leaf.status).toBe(200);
    expect(leaf.headers['content-type']).toBe('application/vnd.ipld.raw');
    expect((await on(gwB, `/ipfs/${dirA}/one.txt`)).status).toBe(403);
    expect((await on(gwB, `/ipfs/${leafA}?format=raw`)).status).toBe(403);
    expect((await on(gwB, `/ipfs/${dirA}?format=car`)).status).toBe(403);
  });
});

describe('access controls', () => {
  it('a gateway token opens a restricted gateway (query or header), for its own gateway only; a revoked token is refused at once', async () => {
    const token = await tb.admin.request<{ id: string; token: string }>('POST', `/gateways/${gwA.id}/tokens`, {
      name: 'ci',
    });
    expect(token.token).toMatch(/^ngt_/);
    expect((await on(gwA, `/ipfs/${fileB}?token=${token.token}`)).status).toBe(200);
    expect((await on(gwA, `/ipfs/${fileB}`, { 'x-nodegate-gateway-token': token.token })).status).toBe(200);
    expect((await on(gwB, `/ipfs/${fileA}?token=${token.token}`)).status).toBe(401);
    expect((await on(gwA, `/ipfs/${fileB}?token=ngt_${'A'.repeat(43)}`)).status).toBe(401);
    const listed = await tb.admin.request<Array<{ id: string }>>('GET', `/gateways/${gwA.id}/tokens`);
    expect(JSON.stringify(listed)).not.toContain(token.token);
    await tb.admin.request('DELETE', `/gateways/${gwA.id}/tokens/${token.id}`);
    expect((await on(gwA, `/ipfs/${fileB}?token=${token.token}`)).status).toBe(401);
    expect((await on(gwA, `/ipfs/${fileB}`)).status).toBe(403);
  });

  it('an allowed origin opens it for pages of that origin (Origin, or Referer for <img>); other origins stay restricted', async () => {
    await tb.admin.request('PATCH', `/gateways/${gwA.id}`, { allowedOrigins: ['*.example.com'] });
    try {
      expect((await on(gwA, `/ipfs/${fileB}`, { origin: 'https://app.example.com' })).status).toBe(200);
      expect((await on(gwA, `/ipfs/${fileB}`, { referer: 'https://shop.example.com/page?x=1' })).status).toBe(200);
      expect((await on(gwA, `/ipfs/${fileB}`, { origin: 'https://example.com.evil.net' })).status).toBe(403);
      expect((await on(gwA, `/ipfs/${fileB}`, { origin: 'https://example.com' })).status).toBe(403);
      expect((await on(gwB, `/ipfs/${fileA}`, { origin: 'https://app.example.com' })).status).toBe(403);
    } finally {
      await tb.admin.request('PATCH', `/gateways/${gwA.id}`, { allowedOrigins: [] });
    }
    expect((await on(gwA, `/ipfs/${fileB}`, { origin: 'https://app.example.com' })).status).toBe(403);
  });

  it('an open gateway serves any CID the node has; one it does not have is 404 (the node is offline)', async () => {
    await tb.admin.request('PATCH', `/gateways/${gwA.id}`, { mode: 'open' });
    try {
      expect((await on(gwA, `/ipfs/${fileB}`)).status).toBe(200);
      expect((await on(gwA, `/ipfs/${unpinned}`)).status).toBe(200);
      const absent = CID.create(1, 0x55, await sha256.digest(randomBytes(32)));
      expect((await on(gwA, `/ipfs/${absent}`)).status).toBe(404);
    } finally {
      await tb.admin.request('PATCH', `/gateways/${gwA.id}`, { mode: 'restricted' });
    }
    expect((await on(gwA, `/ipfs/${fileB}`)).status).toBe(403);
  });

  it("a member of one account cannot see or change another account's gateway (404); names are unique", async () => {
    const dup = await tb.admin
      .request('POST', `/accounts/${accountB}/gateways`, { name: 'dev' })
      .catch((e: { status: number }) => e);
    expect((dup as { status: number }).status).toBe(409);
    const bad = await tb.admin
      .request('POST', `/accounts/${accountB}/gateways`, { name: 'Not A Label' })
      .catch((e: { status: number }) => e);
    expect((bad as { status: number }).status).toBe(400);
  });
});

describe('gateway bandwidth: counted per account, held to the plan', () => {
  it("an account's gateways serve up to its plan's gatewayBandwidthPerDay, then 429; the other account is not touched", async () => {
    const first = await on(gwB, `/ipfs/${bigB}`);
    expect(first.status).toBe(200);
    expect(first.body.equals(BIG_B)).toBe(true);
    // the day's bandwidth runs out inside the second answer: it is cut (the client sees it incomplete)
    const second = await on(gwB, `/ipfs/${bigB}`).catch((err: Error) => err);
    if (!(second instanceof Error)) expect(second.body.length).toBeLessThan(BIG_B.length);
    const third = await on(gwB, `/ipfs/${fileB}`);
    expect(third.status).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(third.body.toString()).toContain('daily gateway bandwidth reached');
    const view = await tb.admin.request<GatewayView>('GET', `/gateways/${gwB.id}`);
    expect(view.bandwidthPerDay).toBe(TINY_BANDWIDTH);
    expect(view.bandwidthToday).toBeGreaterThanOrEqual(TINY_BANDWIDTH);
    // account A's gateway is not held by B's bandwidth
    expect((await on(gwA, `/ipfs/${fileA}`)).status).toBe(200);
    const a = await tb.admin.request<GatewayView>('GET', `/gateways/${gwA.id}`);
    expect(a.bandwidthToday).toBeLessThan(TINY_BANDWIDTH);
  });

  it("usage shows each account's gateway traffic (network ipfs-gateway) and each gateway's requests with their refusals", async () => {
    await tb.t.gw.flushUsage();
    const usage = await tb.admin.request<{ totals: { requests: number; bytesOut: number } }>(
      'GET',
      `/usage?account=${accountB}&byNetwork=true`,
    );
    expect(usage.totals.requests).toBeGreaterThan(0);
    expect(usage.totals.bytesOut).toBeGreaterThanOrEqual(BIG_B.length);
    const rows = await tb.admin.request<
      Array<{ method: string; network: string; status: number; refusal: string | null }>
    >('GET', `/gateways/${gwB.id}/requests?limit=100`);
    expect(rows.every((r) => r.network === 'ipfs-gateway')).toBe(true);
    expect(rows.some((r) => r.status === 403 && r.refusal === 'gateway-restricted')).toBe(true);
    expect(rows.some((r) => r.status === 429 && r.refusal === 'gateway-bandwidth')).toBe(true);
    expect(rows.some((r) => r.method === 'gateway/unixfs' && r.status === 200)).toBe(true);
    // account A's rows are not in B's gateway's log
    const rowsA = await tb.admin.request<Array<{ status: number }>>('GET', `/gateways/${gwA.id}/requests?limit=100`);
    expect(rowsA.length).toBeGreaterThan(0);
    expect(rowsA.some((r) => r.status === 429)).toBe(false);
  });

  it("a gateway's requests are held to its account plan's rate (429 with Retry-After)", async () => {
    const c = await tb.admin.createAccount({ name: 'tenant c', plan: 'slow' });
    const gwC = await tb.admin.request<GatewayView>('POST', `/accounts/${c.id}/gateways`, { name: 'cee' });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await on(gwC, '/ipfs/bafkqaaa?format=raw')).status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(429);
  });

  it("a revoked key's pins stop counting at once", async () => {
    expect((await on(gwB, `/ipfs/${fileB}?format=raw`)).status).not.toBe(403);
    await tb.t.revokeKey(keyB);
    expect((await on(gwB, `/ipfs/${fileB}?format=raw`)).status).toBe(403);
  });
});
