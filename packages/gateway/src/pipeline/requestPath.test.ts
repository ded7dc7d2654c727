import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../families/eth/ethMethods.js';
import { type TestGateway, postJson, startTestGateway } from '../test-support/startTestGateway.js';
import { createTestKey, setKeySettings } from '../test-support/testKeys.js';

let t: TestGateway;
let base: string;
beforeAll(async () => {
  t = await startTestGateway();
  base = t.gw.networks['eth-devnet']!.http;
});
afterAll(async () => {
  await t?.stop();
});

const ADDR = `0x${'11'.repeat(20)}`;
const OTHER = `0x${'22'.repeat(20)}`;
const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });
const url = (key: string) => `${base}/v3/${key}`;
const basic = (secret: string) => `Basic ${Buffer.from(`:${secret}`).toString('base64')}`;
const CHAIN_ID_CREDITS = ethMethods.eth_chainId.credits;

describe('limits: per-second rate and daily credits, per key', () => {
  it('over the rate: 429, -32005 with current/allowed rate and backoff, Retry-After; another key is untouched', async () => {
    const a = await createTestKey(t.gw, { settings: { creditsPerSecond: CHAIN_ID_CREDITS * 5 } });
    const b = await createTestKey(t.gw);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => postJson(url(a.key), call('eth_chainId', [], i))),
    );
    const refused = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(5);
    expect(refused.length).toBeGreaterThan(20);
    const r = refused[0]!;
    expect(r.json.error.code).toBe(-32005);
    expect(r.json.error.message).toBe('project ID request rate exceeded');
    expect(Object.keys(r.json.error.data).sort()).toEqual(['allowed_rps', 'backoff_seconds', 'current_rps']);
    expect(r.json.error.data).toMatchObject({ allowed_rps: CHAIN_ID_CREDITS * 5 });
    expect(r.json.error.data.current_rps).toBeGreaterThanOrEqual(CHAIN_ID_CREDITS * 5);
    expect(r.json.error.data.backoff_seconds).toBeGreaterThan(0);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // key B, same moment, same network: every call answered
    const other = await Promise.all(Array.from({ length: 20 }, () => postJson(url(b.key), call('eth_chainId'))));
    expect(other.every((x) => x.status === 200 && x.json.result === '0x7a69')).toBe(true);
  });

  it('over the day: 429 "daily credit limit exceeded" with resets_at; a batch is refused whole, never half-charged', async () => {
    const k = await createTestKey(t.gw, { settings: { creditsPerDay: CHAIN_ID_CREDITS * 3 } });
    for (let i = 0; i < 2; i++) expect((await postJson(url(k.key), call('eth_chainId'))).status).toBe(200);
    // one credit-slot left: a batch of two does not fit and charges nothing
    const batch = await postJson(url(k.key), [call('eth_chainId', [], 1), call('eth_chainId', [], 2)]);
    expect(batch.status).toBe(429);
    expect(batch.json).toHaveLength(2);
    for (const item of batch.json) {
      expect(item.error.code).toBe(-32005);
      expect(item.error.message).toBe('daily credit limit exceeded');
    }
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    expect(Object.keys(batch.json[0].error.data).sort()).toEqual(['daily_limit', 'resets_at', 'used']);
    expect(batch.json[0].error.data).toMatchObject({
      daily_limit: CHAIN_ID_CREDITS * 3,
      used: CHAIN_ID_CREDITS * 2,
      resets_at: tomorrow.toISOString(),
    });
    // the single call still fits: the refused batch charged nothing
    expect((await postJson(url(k.key), call('eth_chainId'))).status).toBe(200);
    const over = await postJson(url(k.key), call('eth_chainId'));
    expect(over.status).toBe(429);
    expect(over.json.error.data.used).toBe(CHAIN_ID_CREDITS * 3);
  });
});

describe('key settings: allowlists', () => {
  const expectRefused = (r: Awaited<ReturnType<typeof postJson>>, reason: string) => {
    expect(r.status).toBe(403);
    expect(r.json.error).toEqual({ code: -32002, message: 'rejected due to project ID settings', data: { reason } });
  };

  it('origins, with *.example.com wildcards; a request without Origin is refused when the list is set', async () => {
    const k = await createTestKey(t.gw, { settings: { allowedOrigins: ['https://app.example.com', '*.good.org'] } });
    const withOrigin = (origin?: string) =>
      postJson(url(k.key), call('eth_chainId'), origin === undefined ? {} : { origin });
    expect((await withOrigin('https://app.example.com')).json.result).toBe('0x7a69');
    expect((await withOrigin('https://deep.sub.good.org')).json.result).toBe('0x7a69');
    expectRefused(await withOrigin('https://good.org'), 'origin');
    expectRefused(await withOrigin('https://evil.example.com'), 'origin');
    expectRefused(await withOrigin(undefined), 'origin');
    // the refusal never reveals the list
    expect((await withOrigin('https://x.com')).text).not.toContain('good.org');
  });

  it('user agents by substring', async () => {
    const k = await createTestKey(t.gw, { settings: { allowedUserAgents: ['viem/'] } });
    expect((await postJson(url(k.key), call('eth_chainId'), { 'user-agent': 'viem/2.31 node' })).status).toBe(200);
    expectRefused(await postJson(url(k.key), call('eth_chainId'), { 'user-agent': 'curl/8.5' }), 'user-agent');
  });

  it('methods: a refused single call is 403; in a batch only the refused item carries -32002', async () => {
    const k = await createTestKey(t.gw, { settings: { allowedMethods: ['eth_chainId', 'eth_getBalance'] } });
    expectRefused(await postJson(url(k.key), call('eth_blockNumber')), 'method');
    const batch = await postJson(url(k.key), [call('eth_chainId', [], 1), call('eth_blockNumber', [], 2)]);
    expect(batch.status).toBe(200);
    expect(batch.json[0].result).toBe('0x7a69');
    expect(batch.json[1].error.code).toBe(-32002);
  });

  it('contracts: the address a call names must be listed; eth_getLogs without an address is refused', async () => {
    const k = await createTestKey(t.gw, { settings: { allowedContracts: [ADDR.toUpperCase().replace('0X', '0x')] } });
    expect((await postJson(url(k.key), call('eth_getBalance', [ADDR, 'latest']))).json.result).toBe('0x0');
    expectRefused(await postJson(url(k.key), call('eth_getBalance', [OTHER, 'latest'])), 'contract');
    expectRefused(await postJson(url(k.key), call('eth_call', [{ to: OTHER, data: '0x' }, 'latest'])), 'contract');
    expectRefused(
      await postJson(url(k.key), call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])),
      'contract',
    );
    expect((await postJson(url(k.key), call('eth_getLogs', [{ address: ADDR, fromBlock: '0x0' }]))).status).toBe(200);
    // methods that name no contract pass
    expect((await postJson(url(k.key), call('eth_chainId'))).status).toBe(200);
  });

  it('lists of different kinds must all pass', async () => {
    const k = await createTestKey(t.gw, {
      settings: { allowedOrigins: ['https://app.example.com'], allowedMethods: ['eth_chainId'] },
    });
    const ok = { origin: 'https://app.example.com' };
    expect((await postJson(url(k.key), call('eth_chainId'), ok)).status).toBe(200);
    expectRefused(await postJson(url(k.key), call('eth_blockNumber'), ok), 'method');
    expectRefused(await postJson(url(k.key), call('eth_chainId'), { origin: 'https://b.example.com' }), 'origin');
  });

  it('a settings change takes effect at once', async () => {
    const k = await createTestKey(t.gw);
    expect((await postJson(url(k.key), call('eth_blockNumber'))).status).toBe(200);
    await setKeySettings(t.gw, k.key, { allowedMethods: ['eth_chainId'] });
    expectRefused(await postJson(url(k.key), call('eth_blockNumber')), 'method');
    await setKeySettings(t.gw, k.key, { allowedMethods: [] });
    expect((await postJson(url(k.key), call('eth_blockNumber'))).status).toBe(200);
  });
});

describe('key settings: secret and JWT', () => {
  it('require secret: HTTP basic :SECRET over HTTP and over the WebSocket upgrade', async () => {
    const k = await createTestKey(t.gw, { settings: { requireSecret: true } });
    const none = await postJson(url(k.key), call('eth_chainId'));
    expect(none.status).toBe(401);
    expect(none.json.error.message).toMatch(/requires its secret/);
    expect((await postJson(url(k.key), call('eth_chainId'), { authorization: basic('0'.repeat(32)) })).status).toBe(
      401,
    );
    const ok = await postJson(url(k.key), call('eth_chainId'), { authorization: basic(k.secret) });
    expect(ok.json.result).toBe('0x7a69');
    expect(none.text).not.toContain(k.secret);

    const wsUrl = `${t.gw.networks['eth-devnet']!.ws}/ws/v3/${k.key}`;
    const refusedStatus = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(wsUrl);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('opened without the secret')));
      ws.on('error', () => {});
    });
    expect(refusedStatus).toBe(401);
    const ws = new WebSocket(wsUrl, { headers: { authorization: basic(k.secret) } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify(call('eth_chainId')));
    const answer = await new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
    expect(answer.result).toBe('0x7a69');
    ws.close();
  });

  it('require JWT: ES256 and RS256 tokens with exp and aud = the key; other keys, expiry and tampering refused', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = (k: typeof ec.publicKey) => k.export({ type: 'spki', format: 'pem' }).toString();
    const k = await createTestKey(t.gw, {
      settings: {
        requireJwt: true,
        jwtKeys: [
          { name: 'ec-main', pem: pem(ec.publicKey) },
          { name: 'rsa-old', pem: pem(rsa.publicKey) },
        ],
      },
    });
    const other = await createTestKey(t.gw);
    const sign = async (
      alg: 'ES256' | 'RS256',
      kid: string,
      claims: { aud?: string; exp?: number },
      key = alg === 'ES256' ? ec.privateKey : rsa.privateKey,
    ) => {
      const priv = await importPKCS8(key.export({ type: 'pkcs8', format: 'pem' }).toString(), alg);
      let jwt = new SignJWT({}).setProtectedHeader({ alg, kid });
      if (claims.aud !== undefined) jwt = jwt.setAudience(claims.aud);
      if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
      return jwt.sign(priv);
    };
    const inAMinute = Math.floor(Date.now() / 1000) + 60;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const post = (headers: Record<string, string> = {}) => postJson(url(k.key), call('eth_chainId'), headers);

    expect((await post()).status).toBe(401);
    expect((await post()).json.error.message).toMatch(/requires a JWT/);
    expect((await post(bearer(await sign('ES256', 'ec-main', { aud: k.key, exp: inAMinute })))).status).toBe(200);
    expect((await post(bearer(await sign('RS256', 'rsa-old', { aud: k.key, exp: inAMinute })))).status).toBe(200);
    // a token for another key
    expect((await post(bearer(await sign('ES256', 'ec-main', { aud: other.key, exp: inAMinute })))).status).toBe(401);
    // no exp, expired
    expect((await post(bearer(await sign('ES256', 'ec-main', { aud: k.key })))).status).toBe(401);
    const expired = await post(bearer(await sign('ES256', 'ec-main', { aud: k.key, exp: inAMinute - 3600 })));
    expect(expired.status).toBe(401);
    expect(expired.json.error.message).toMatch(/^invalid JWT: /);
    // signed by a key that is not registered
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect((await post(bearer(await sign('ES256', 'ec-main', { aud: k.key, exp: inAMinute }, stranger)))).status).toBe(
      401,
    );
    // tampered payload
    const good = await sign('ES256', 'ec-main', { aud: k.key, exp: inAMinute });
    const [h, , s] = good.split('.');
    const forged = Buffer.from(JSON.stringify({ aud: k.key, exp: inAMinute + 99_999 })).toString('base64url');
    expect((await post(bearer(`${h}.${forged}.${s}`))).status).toBe(401);
  });
});
