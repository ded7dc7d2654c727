import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { create } from 'kubo-rpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, type IpfsTestGateway, startIpfsTestGateway } from '../ipfs/startIpfsTestGateway.js';
import { setKeySettings } from '../test-support/testKeys.js';

// Issue 20, item 12: keys that require a JWT could not use IPFS (its Authorization header carries
// the basic credentials, and the JWT had nowhere to go). The JWT now travels in X-Nodegate-JWT
// beside the basic credentials, or as Authorization: Bearer with the basic credentials in
// X-Nodegate-Authorization; the secret is still required, and the token is checked as on JSON-RPC.

let t: IpfsTestGateway;
let ec: { publicKey: KeyObject; privateKey: KeyObject };
let jwtKey: { key: string; secret: string; authorization: string };
let plain: { key: string; secret: string; authorization: string };

async function sign(claims: { aud?: string; exp?: number }, key: KeyObject = ec.privateKey): Promise<string> {
  const priv = await importPKCS8(key.export({ type: 'pkcs8', format: 'pem' }).toString(), 'ES256');
  let jwt = new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: 'main' });
  if (claims.aud !== undefined) jwt = jwt.setAudience(claims.aud);
  if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
  return jwt.sign(priv);
}
const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

async function version(headers: Record<string, string>): Promise<{ status: number; message?: string }> {
  const res = await fetch(`${t.ipfsUrl}/api/v0/version`, { method: 'POST', headers });
  const body = (await res.json()) as { Message?: string };
  return { status: res.status, ...(body.Message === undefined ? {} : { message: body.Message }) };
}

beforeAll(async () => {
  t = await startIpfsTestGateway();
  ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  jwtKey = await t.createKey();
  plain = await t.createKey();
  await setKeySettings(t.gw, jwtKey.key, {
    requireJwt: true,
    jwtKeys: [{ name: 'main', pem: ec.publicKey.export({ type: 'spki', format: 'pem' }).toString() }],
  });
});

afterAll(async () => {
  await t?.stop();
});

describe('a key that requires a JWT uses IPFS', () => {
  it('basic KEY:SECRET plus X-Nodegate-JWT: kubo-rpc-client adds and reads', async () => {
    const token = await sign({ aud: jwtKey.key, exp: inAMinute() });
    const client = create({
      url: `${t.ipfsUrl}/api/v0`,
      headers: { authorization: jwtKey.authorization, 'x-nodegate-jwt': token },
    });
    const { cid } = await client.add('only with a token');
    const chunks: Uint8Array[] = [];
    for await (const c of client.cat(cid)) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe('only with a token');
    const pins = [];
    for await (const p of client.pin.ls({ type: 'recursive' })) pins.push(p.cid.toString());
    expect(pins).toEqual([cid.toString()]);
  });

  it('Authorization: Bearer <JWT> with the basic credentials in X-Nodegate-Authorization', async () => {
    const token = await sign({ aud: jwtKey.key, exp: inAMinute() });
    expect(
      await version({ authorization: `Bearer ${token}`, 'x-nodegate-authorization': jwtKey.authorization }),
    ).toEqual({ status: 200 });
  });

  it('without a token, or with a bad one, 401 in Kubo’s shape saying what to send', async () => {
    expect(await version({ authorization: jwtKey.authorization })).toEqual({
      status: 401,
      message: 'this API key requires a JWT: send X-Nodegate-JWT: <token> beside the basic credentials',
    });
    const expired = await sign({ aud: jwtKey.key, exp: inAMinute() - 3600 });
    expect(await version({ authorization: jwtKey.authorization, 'x-nodegate-jwt': expired })).toMatchObject({
      status: 401,
      message: expect.stringMatching(/^invalid JWT: /),
    });
    const forOther = await sign({ aud: plain.key, exp: inAMinute() });
    expect((await version({ authorization: jwtKey.authorization, 'x-nodegate-jwt': forOther })).status).toBe(401);
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = await sign({ aud: jwtKey.key, exp: inAMinute() }, stranger);
    expect((await version({ authorization: jwtKey.authorization, 'x-nodegate-jwt': forged })).status).toBe(401);
  });

  it('the secret is still required: a valid token with a wrong secret or no basic credentials is 401', async () => {
    const token = await sign({ aud: jwtKey.key, exp: inAMinute() });
    const wrong = basicAuth(jwtKey.key, 'not-the-secret');
    expect((await version({ authorization: wrong, 'x-nodegate-jwt': token })).status).toBe(401);
    expect(await version({ authorization: `Bearer ${token}` })).toMatchObject({
      status: 401,
      message: expect.stringMatching(/X-Nodegate-Authorization: Basic/),
    });
    expect((await version({ authorization: `Bearer ${token}`, 'x-nodegate-authorization': wrong })).status).toBe(401);
  });

  it('a token sent twice is refused; another key’s credentials cannot carry this key’s token', async () => {
    const token = await sign({ aud: jwtKey.key, exp: inAMinute() });
    expect(
      (
        await version({
          authorization: `Bearer ${token}`,
          'x-nodegate-authorization': jwtKey.authorization,
          'x-nodegate-jwt': token,
        })
      ).status,
    ).toBe(401);
    // the plain key's basic credentials with the JWT key's token: aud is not the plain key
    expect((await version({ authorization: plain.authorization, 'x-nodegate-jwt': token })).status).toBe(401);
    // the plain key alone still works, as before
    expect(await version({ authorization: plain.authorization })).toEqual({ status: 200 });
  });
});
