import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../families/eth/ethMethods.js';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { metricSum as sum, parseMetrics as parse } from '../test-support/metricSamples.js';
import { postJson, rpc, type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { createTestKey, type TestKey } from '../test-support/testKeys.js';

let t: TestGateway;
let a: TestKey;
let b: TestKey;

const scrape = async (token: string | null = t.gw.admin.token) => {
  const res = await fetch(t.gw.metrics!.url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};
const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params });
const rpcUrl = (key: string) => `${t.gw.networks['eth-devnet']!.http}/v3/${key}`;

beforeAll(async () => {
  t = await startTestGateway({
    extra: {
      ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', embedded: 'ipfs-node' } },
      // every call below reaches the upstream (the cache's own metrics are tested in cache/)
      cache: { enabled: false },
    },
  });
  a = await createTestKey(t.gw);
  // b: methods allowlisted, and a day's credits that cover one eth_blockNumber only
  b = await createTestKey(t.gw, {
    settings: {
      allowedMethods: ['eth_blockNumber', 'eth_chainId'],
      creditsPerDay: ethMethods.eth_blockNumber.credits,
    },
  });
});
afterAll(async () => {
  await t?.stop();
});

describe('/metrics through a gateway on anvil', () => {
  it('is served on the main listener to the admin token only', async () => {
    expect(t.gw.metrics).toEqual({ url: `${t.gw.url}/metrics`, auth: 'admin-token' });
    const anonymous = await scrape(null);
    expect(anonymous.status).toBe(401);
    expect((await scrape(a.key)).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(ok.text).toContain('# TYPE nodegate_requests_total counter');
    expect(ok.text).toContain('# TYPE nodegate_request_duration_seconds histogram');
    expect(ok.text).toContain('process_cpu_user_seconds_total');
    expect((await fetch(t.gw.metrics!.url, { method: 'POST' })).status).toBe(405);
  });

  it('counts HTTP, batch items, WebSocket calls and notifications, and IPFS commands by bounded labels; refusals by kind; no key in any label', async () => {
    const before = parse((await scrape()).text);
    const eth = { network: 'eth-devnet', transport: 'http' };

    // HTTP: three calls, a batch of a known and an unknown method
    for (let i = 0; i < 3; i++) expect((await postJson(rpcUrl(a.key), call('eth_chainId'))).status).toBe(200);
    const batch = await postJson(rpcUrl(a.key), [call('eth_blockNumber'), call('eth_noSuchMethod')]);
    expect(batch.status).toBe(200);
    expect(batch.json[1].error.code).toBe(-32601);
    // refusals: a rule (method allowlist), then a limit (the day's credits)
    expect((await postJson(rpcUrl(b.key), call('eth_gasPrice'))).status).toBe(403);
    expect((await postJson(rpcUrl(b.key), call('eth_blockNumber'))).status).toBe(200);
    expect((await postJson(rpcUrl(b.key), call('eth_blockNumber'))).status).toBe(429);

    // WebSocket: a call, a newHeads subscription and its notification for a mined block
    const ws = new WebSocket(`${t.gw.networks['eth-devnet']!.ws}/ws/v3/${a.key}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const messages: any[] = [];
    const waitFor = async (pred: (m: any) => boolean) => {
      for (let i = 0; i < 200; i++) {
        const m = messages.find(pred);
        if (m) return m;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('no such WebSocket message');
    };
    ws.on('message', (d) => messages.push(JSON.parse(String(d))));
    ws.send(JSON.stringify({ ...call('eth_chainId'), id: 7 }));
    expect((await waitFor((m) => m.id === 7)).result).toBe('0x7a69');
    ws.send(JSON.stringify({ ...call('eth_subscribe', ['newHeads']), id: 8 }));
    await waitFor((m) => m.id === 8);
    expect((await rpc(rpcUrl(a.key), 'evm_mine')).result).toBe('0x0');
    await waitFor((m) => m.method === 'eth_subscription');
    // the WebSocket gauges and counters, read from the subscriptions' stats at scrape time
    const open = parse((await scrape()).text);
    expect(sum(open, 'nodegate_ws_connections')).toBe(1);
    expect(sum(open, 'nodegate_ws_client_subscriptions', { network: 'eth-devnet' })).toBe(1);
    expect(sum(open, 'nodegate_ws_upstream_subscriptions', { network: 'eth-devnet' })).toBe(1);
    expect(sum(open, 'nodegate_ws_delivered_events_total', { network: 'eth-devnet' })).toBeGreaterThanOrEqual(1);
    ws.close();

    // IPFS: one command with basic auth
    const version = await fetch(`${t.gw.ipfs}/api/v0/version`, {
      method: 'POST',
      headers: { authorization: basicAuth(a.key, a.secret) },
    });
    expect(version.status).toBe(200);
    await version.text();

    // IPFS and notifications are recorded when their answer closes: poll for them
    let after = parse((await scrape()).text);
    for (let i = 0; i < 100 && sum(after, 'nodegate_requests_total', { transport: 'ipfs' }) === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = parse((await scrape()).text);
    }
    const delta = (name: string, labels: Record<string, string>) =>
      sum(after, name, labels) - sum(before, name, labels);

    const requests = 'nodegate_requests_total';
    expect(delta(requests, { ...eth, class: 'read', method: 'eth_chainId', status: '200', outcome: 'ok' })).toBe(3);
    expect(delta(requests, { ...eth, class: 'read', method: 'eth_blockNumber', status: '200', outcome: 'ok' })).toBe(2);
    expect(delta(requests, { ...eth, class: 'other', method: '(other)', status: '200', outcome: 'error' })).toBe(1);
    expect(delta(requests, { ...eth, method: 'eth_gasPrice', status: '403', outcome: 'refused' })).toBe(1);
    expect(delta(requests, { ...eth, method: 'eth_blockNumber', status: '429', outcome: 'refused' })).toBe(1);
    expect(delta(requests, { ...eth, class: 'write', method: '(dev)', outcome: 'ok' })).toBe(1); // evm_mine
    const ws_ = { network: 'eth-devnet', transport: 'ws' };
    expect(delta(requests, { ...ws_, class: 'read', method: 'eth_chainId', outcome: 'ok' })).toBe(1);
    expect(delta(requests, { ...ws_, class: 'subscription', method: 'eth_subscribe', outcome: 'ok' })).toBe(1);
    expect(delta(requests, { ...ws_, class: 'subscription', method: 'eth_subscription' })).toBeGreaterThanOrEqual(1);
    expect(
      delta(requests, { network: 'ipfs', transport: 'ipfs', class: 'ipfs', method: 'version', status: '200' }),
    ).toBe(1);

    // latency: one observation per request and batch item, none for notifications
    const count = 'nodegate_request_duration_seconds_count';
    expect(delta(count, { ...eth, class: 'read', status: '200' })).toBe(5); // 3 eth_chainId + 2 eth_blockNumber
    expect(delta(count, { ...ws_, class: 'subscription' })).toBe(1); // eth_subscribe only
    expect(delta(count, { network: 'ipfs', class: 'ipfs' })).toBe(1);
    expect(delta('nodegate_request_duration_seconds_sum', { ...eth, class: 'read' })).toBeGreaterThan(0);
    expect(
      delta('nodegate_request_duration_seconds_bucket', { ...eth, class: 'read', status: '200', le: '+Inf' }),
    ).toBe(5);

    // which upstream answered: 3 eth_chainId + 2 eth_blockNumber + evm_mine over HTTP, eth_chainId
    // over WebSocket (eth_subscribe is answered by the shared subscription hub, not an upstream)
    const answered = { network: 'eth-devnet', upstream: 'anvil', outcome: 'ok' };
    expect(delta('nodegate_upstream_answers_total', answered)).toBe(7);
    expect(sum(after, 'nodegate_upstream_healthy', { network: 'eth-devnet', upstream: 'anvil' })).toBe(1);
    expect(sum(after, 'nodegate_upstream_consecutive_failures', { network: 'eth-devnet', upstream: 'anvil' })).toBe(0);

    expect(delta('nodegate_rule_refusals_total', { ...eth, rule: 'method' })).toBe(1);
    expect(delta('nodegate_limit_refusals_total', { ...eth, kind: 'daily' })).toBe(1);
    expect(delta('nodegate_limit_refusals_total', { ...eth, kind: 'rate' })).toBe(0);

    // no key, secret or request id anywhere in the text
    const text = (await scrape()).text;
    for (const secret of [a.key, b.key, a.secret, b.secret, t.key, t.secret]) expect(text).not.toContain(secret);
    const labelNames = new Set(parse(text).flatMap((s) => Object.keys(s.labels)));
    for (const forbidden of ['key', 'account', 'accountId', 'requestId', 'request_id']) {
      expect(labelNames.has(forbidden)).toBe(false);
    }
  });

  it('keeps method labels bounded by the method table, whatever clients send', async () => {
    const names = (text: string) =>
      new Set(
        parse(text)
          .filter((s) => s.name === 'nodegate_requests_total' && s.labels.network === 'eth-devnet')
          .map((s) => s.labels.method!),
      );
    const series = (text: string) => parse(text).filter((s) => s.name.startsWith('nodegate_')).length;
    await postJson(rpcUrl(a.key), call('eth_made_up_0'));
    const before = await scrape();
    const junk = Array.from({ length: 20 }, (_, i) => call(`eth_made_up_${i}_${Math.random()}`));
    expect((await postJson(rpcUrl(a.key), junk)).status).toBe(200);
    const after = await scrape();
    expect(series(after.text)).toBe(series(before.text));
    const allowed = new Set([
      ...Object.keys(ethMethods),
      '(other)',
      '(dev)',
      '(refused)',
      '(invalid)',
      'eth_subscription',
    ]);
    for (const m of names(after.text)) expect(allowed.has(m)).toBe(true);
    expect(after.text).not.toContain('eth_made_up');
  });
});
