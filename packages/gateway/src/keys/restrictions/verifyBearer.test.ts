import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { type KeySettings, OPEN_SETTINGS } from '../KeySettings.js';
import { verifyBearer } from './verifyBearer.js';

const API_KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const nowSec = NOW / 1000;

let rsa: { privateKey: KeyObject; publicKey: KeyObject };
let ec: { privateKey: KeyObject; publicKey: KeyObject };
let otherEc: { privateKey: KeyObject; publicKey: KeyObject };
let settings: KeySettings;

const pem = (k: KeyObject) => k.export({ type: 'spki', format: 'pem' }).toString();

beforeAll(() => {
  rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  otherEc = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  settings = {
    ...OPEN_SETTINGS,
    requireJwt: true,
    jwtKeys: [
      { name: 'rsa-main', pem: pem(rsa.publicKey) },
      { name: 'ec-main', pem: pem(ec.publicKey) },
    ],
  };
});

function sign(
  claims: Record<string, unknown>,
  opts: { alg?: 'RS256' | 'ES256'; kid?: string; key?: KeyObject } = {},
): Promise<string> {
  const alg = opts.alg ?? 'ES256';
  const key = opts.key ?? (alg === 'RS256' ? rsa.privateKey : ec.privateKey);
  const header = opts.kid === undefined ? { alg } : { alg, kid: opts.kid };
  return new SignJWT({ aud: API_KEY, exp: nowSec + 600, iat: nowSec - 5, ...claims })
    .setProtectedHeader(header)
    .sign(key);
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('verifyBearer', () => {
  it('accepts a valid RS256 token selected by kid', async () => {
    const token = await sign({}, { alg: 'RS256', kid: 'rsa-main' });
    expect(await verifyBearer(settings, token, API_KEY, NOW)).toEqual({ ok: true });
  });

  it('accepts a valid ES256 token without kid (each key is tried)', async () => {
    const token = await sign({});
    expect(await verifyBearer(settings, token, API_KEY, NOW)).toEqual({ ok: true });
    const two = { ...settings, jwtKeys: [{ name: 'other', pem: pem(otherEc.publicKey) }, ...settings.jwtKeys] };
    expect(await verifyBearer(two, token, API_KEY, NOW)).toEqual({ ok: true });
  });

  it('accepts aud as an array containing the API key id', async () => {
    const token = await sign({ aud: ['someone-else', API_KEY] }, { kid: 'ec-main' });
    expect(await verifyBearer(settings, token, API_KEY, NOW)).toEqual({ ok: true });
  });

  it('refuses an expired token, but tolerates 30 s of skew', async () => {
    const expired = await sign({ exp: nowSec - 31 });
    expect(await verifyBearer(settings, expired, API_KEY, NOW)).toEqual({ ok: false, reason: 'token expired' });
    const justExpired = await sign({ exp: nowSec - 10 });
    expect(await verifyBearer(settings, justExpired, API_KEY, NOW)).toEqual({ ok: true });
  });

  it('refuses a token without exp', async () => {
    const token = await new SignJWT({ aud: API_KEY }).setProtectedHeader({ alg: 'ES256' }).sign(ec.privateKey);
    expect(await verifyBearer(settings, token, API_KEY, NOW)).toEqual({ ok: false, reason: 'missing exp claim' });
  });

  it('refuses the wrong audience and a missing audience', async () => {
    const wrong = await sign({ aud: 'another-key' });
    expect(await verifyBearer(settings, wrong, API_KEY, NOW)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/wrong audience/),
    });
    const none = await sign({ aud: undefined });
    expect(await verifyBearer(settings, none, API_KEY, NOW)).toEqual({ ok: false, reason: 'missing aud claim' });
  });

  it('respects nbf and iat with tolerance', async () => {
    expect(await verifyBearer(settings, await sign({ nbf: nowSec + 120 }), API_KEY, NOW)).toEqual({
      ok: false,
      reason: 'token not yet valid (nbf)',
    });
    expect(await verifyBearer(settings, await sign({ nbf: nowSec + 20 }), API_KEY, NOW)).toEqual({ ok: true });
    expect(await verifyBearer(settings, await sign({ iat: nowSec + 120 }), API_KEY, NOW)).toEqual({
      ok: false,
      reason: 'token issued in the future (iat)',
    });
    expect(await verifyBearer(settings, await sign({ iat: nowSec + 20 }), API_KEY, NOW)).toEqual({ ok: true });
  });

  it('refuses an unknown kid, and a kid whose key did not sign', async () => {
    const unknown = await sign({}, { kid: 'nope' });
    expect(await verifyBearer(settings, unknown, API_KEY, NOW)).toEqual({ ok: false, reason: 'unknown key id (kid)' });
    const wrongKey = await sign({}, { kid: 'ec-main', key: otherEc.privateKey });
    expect(await verifyBearer(settings, wrongKey, API_KEY, NOW)).toEqual({ ok: false, reason: 'invalid signature' });
    const mismatch = await sign({}, { alg: 'ES256', kid: 'rsa-main' });
    expect(await verifyBearer(settings, mismatch, API_KEY, NOW)).toMatchObject({ ok: false });
  });

  it('refuses a token signed by an unregistered key (no kid)', async () => {
    const token = await sign({}, { key: otherEc.privateKey });
    expect(await verifyBearer(settings, token, API_KEY, NOW)).toEqual({ ok: false, reason: 'invalid signature' });
  });

  it('refuses alg none', async () => {
    const token = new UnsecuredJWT({ aud: API_KEY, exp: nowSec + 600 }).encode();
    expect(await verifyBearer(settings, token, API_KEY, NOW)).toEqual({
      ok: false,
      reason: 'algorithm not allowed (RS256 or ES256 only)',
    });
    const withKid = `${b64({ alg: 'none', kid: 'ec-main' })}.${b64({ aud: API_KEY, exp: nowSec + 600 })}.`;
    expect(await verifyBearer(settings, withKid, API_KEY, NOW)).toMatchObject({ ok: false });
  });

  it('refuses HS256 signed with the public key PEM as the secret', async () => {
    for (const [name, key] of [
      ['rsa-main', rsa.publicKey],
      ['ec-main', ec.publicKey],
    ] as const) {
      const secret = new TextEncoder().encode(pem(key));
      const token = await new SignJWT({ aud: API_KEY, exp: nowSec + 600 })
        .setProtectedHeader({ alg: 'HS256', kid: name })
        .sign(secret);
      expect(await verifyBearer(settings, token, API_KEY, NOW)).toEqual({
        ok: false,
        reason: 'algorithm not allowed (RS256 or ES256 only)',
      });
    }
  });

  it('refuses a tampered payload', async () => {
    const token = await sign({ sub: 'alice' }, { alg: 'RS256', kid: 'rsa-main' });
    const [h, , s] = token.split('.');
    const forged = `${h}.${b64({ aud: API_KEY, exp: nowSec + 600, sub: 'admin' })}.${s}`;
    expect(await verifyBearer(settings, forged, API_KEY, NOW)).toEqual({ ok: false, reason: 'invalid signature' });
  });

  it('refuses garbage, and never echoes the token in the reason', async () => {
    for (const token of ['', 'abc', 'a.b.c', `${b64({ alg: 'ES256' })}.!!!.x`, 'secret-looking-token-123']) {
      const r = await verifyBearer(settings, token, API_KEY, NOW);
      expect(r.ok).toBe(false);
      if (!r.ok && token.length > 3) expect(r.reason).not.toContain(token);
    }
  });

  it('refuses every token when the key has no JWT public keys', async () => {
    const token = await sign({});
    expect(await verifyBearer(OPEN_SETTINGS, token, API_KEY, NOW)).toMatchObject({ ok: false });
  });
});
