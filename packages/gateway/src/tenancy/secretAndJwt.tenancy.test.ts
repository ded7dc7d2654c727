import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWsClient } from '../test-support/openWsClient.js';
import { postJson, startTestGateway, type TestGateway } from '../test-support/startTestGateway.js';
import { createTestKey, type TestKey } from '../test-support/testKeys.js';

// A key whose settings require both its secret and a JWT could make no JSON-RPC request at all:
// one Authorization header carries either the basic credentials or the Bearer token. Every
// transport now takes the second one beside it (X-Nodegate-JWT with Basic, or
// X-Nodegate-Authorization with Bearer), as IPFS already did; neither check is relaxed.

let t: TestGateway;
let ec: { publicKey: KeyObject; privateKey: KeyObject };
let both: TestKey;
let other: TestKey;

const basic = (secret: string) => `Basic ${Buffer.from(`:${secret}`).toString('base64')}`;
const inAMinute = () => Math.floor(Date.now() / 1000) + 60;
async function sign(aud: string): Promise<string> {
  const priv = await importPKCS8(ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'ES256');
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: 'main' })
    .setAudience(aud)
    .setExpirationTime(inAMinute())
    .sign(priv);
}
const url = (k: TestKey) => t.rpcUrl.replace(t.key, k.key);
const chainId = (k: TestKey, headers: Record<string, string>) =>
  postJson(url(k), { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, headers);

beforeAll(async () => {
  t = await startTestGateway();
  ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwtKeys = [{ name: 'main', pem: ec.publicKey.export({ type: 'spki', format: 'pem' }).toString() }];
  both = await createTestKey(t.gw, {
    name: 'secret and jwt',
    settings: { requireSecret: true, requireJwt: true, jwtKeys },
  });
  other = await createTestKey(t.gw, { name: 'other', settings: { requireSecret: true, requireJwt: true, jwtKeys } });
});

afterAll(async () => {
  await t?.stop();
});

describe('a key that requires its secret and a JWT', () => {
  it('answers over HTTP with Basic :SECRET + X-Nodegate-JWT, and with Bearer + X-Nodegate-Authorization', async () => {
    const token = await sign(both.key);
    const a = await chainId(both, { authorization: basic(both.secret), 'x-nodegate-jwt': token });
    expect(a.status).toBe(200);
    expect(a.json.result).toBe('0x7a69');
    const b = await chainId(both, { authorization: `Bearer ${token}`, 'x-nodegate-authorization': basic(both.secret) });
    expect(b.status).toBe(200);
    expect(b.json.result).toBe('0x7a69');
  });

  it('still refuses each half alone, a wrong secret, another key’s token, and a token sent twice', async () => {
    const token = await sign(both.key);
    const refused = [
      { authorization: basic(both.secret) },
      { authorization: `Bearer ${token}` },
      { authorization: basic('wrong'), 'x-nodegate-jwt': token },
      { authorization: basic(both.secret), 'x-nodegate-jwt': await sign(other.key) },
      { authorization: basic(other.secret), 'x-nodegate-jwt': token },
      { authorization: `Bearer ${token}`, 'x-nodegate-jwt': token, 'x-nodegate-authorization': basic(both.secret) },
      { authorization: basic(both.secret), 'x-nodegate-authorization': basic(both.secret) },
    ];
    for (const headers of refused) {
      const r = await chainId(both, headers);
      expect(r.status, JSON.stringify(Object.keys(headers))).toBe(401);
      expect(r.json.error.code).toBe(-32001);
      expect(r.text).not.toContain(both.secret);
    }
  });

  it('opens a WebSocket with both, and the upgrade is refused with either alone', async () => {
    const wsUrl = t.wsUrl.replace(t.key, both.key);
    const token = await sign(both.key);
    const c = await openWsClient(wsUrl, { headers: { authorization: basic(both.secret), 'x-nodegate-jwt': token } });
    expect((await c.call('eth_chainId')).result).toBe('0x7a69');
    c.close();
    await expect(openWsClient(wsUrl, { headers: { authorization: basic(both.secret) } })).rejects.toThrow(/401/);
    await expect(openWsClient(wsUrl, { headers: { authorization: `Bearer ${token}` } })).rejects.toThrow(/401/);
  });
});
