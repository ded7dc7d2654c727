import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { type RunningGateway, startGateway } from '../main.js';
import { type AdminAnswer, adminBrowser } from '../test-support/adminBrowser.js';
import { type TestGateway, startTestGateway } from '../test-support/startTestGateway.js';
import { admin } from '../test-support/testKeys.js';

// Issue 20, item 12 (the session cookie): behind a TLS proxy the cookie was never `Secure` (the
// gateway believed no proxy, so every request looked like http). Now `trustedProxies` lists the
// proxies whose X-Forwarded-Proto and X-Forwarded-For are believed, and only theirs: the cookie
// is Secure when the request came over https through one of them, and a client that is not a
// trusted proxy can neither claim https nor pick the address its sign-in attempts count under.

let trusted: TestGateway; // trusts 127.0.0.1, where the test's requests come from
let untrusted: RunningGateway; // trusts only 10.0.0.0/8
let untrustedDir: string;
const PASSWORD = 'a password of mine';

async function withUser(gw: RunningGateway, email: string): Promise<void> {
  const invitation = await admin(gw, 'POST', '/accounts/operator/members', { email, role: 'viewer' });
  expect((await adminBrowser(gw.admin.url).accept(invitation.token, PASSWORD)).status).toBe(200);
}
const cookieOf = (a: AdminAnswer) => a.headers.get('set-cookie') ?? '';

beforeAll(async () => {
  trusted = await startTestGateway({ extra: { trustedProxies: ['127.0.0.1', '10.0.0.0/8'] } });
  untrustedDir = await mkdtemp(join(tmpdir(), 'nodegate-untrusted-'));
  untrusted = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: untrustedDir,
      trustedProxies: ['10.0.0.0/8'],
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: trusted.directUrl }],
        },
      ],
    }),
  );
  await withUser(trusted.gw, 'alice@example.com');
  await withUser(untrusted, 'alice@example.com');
});
afterAll(async () => {
  await untrusted?.close();
  await trusted?.stop();
  if (untrustedDir) await rm(untrustedDir, { recursive: true, force: true });
});

describe('the session cookie behind a TLS proxy (issue 20, item 12)', () => {
  it('is Secure when a trusted proxy says the request came over https, and not over plain http', async () => {
    const viaTls = await adminBrowser(trusted.gw.admin.url).signIn(
      { email: 'alice@example.com', password: PASSWORD },
      { 'x-forwarded-proto': 'https' },
    );
    expect(viaTls.status).toBe(200);
    expect(cookieOf(viaTls)).toMatch(/^nodegate_session=[\w-]{43};/);
    expect(cookieOf(viaTls)).toMatch(/;\s*Secure/i);
    expect(cookieOf(viaTls)).toMatch(/HttpOnly/);
    expect(cookieOf(viaTls)).toMatch(/SameSite=Strict/);
    const plain = await adminBrowser(trusted.gw.admin.url).signIn({ email: 'alice@example.com', password: PASSWORD });
    expect(plain.status).toBe(200);
    expect(cookieOf(plain)).not.toMatch(/Secure/i);
    // accepting an invitation signs in too: the same cookie rule
    const invitation = await admin(trusted.gw, 'POST', '/accounts/operator/members', {
      email: 'bob@example.com',
      role: 'viewer',
    });
    const accepted = await adminBrowser(trusted.gw.admin.url).accept(invitation.token, PASSWORD, {
      'x-forwarded-proto': 'https',
    });
    expect(cookieOf(accepted)).toMatch(/;\s*Secure/i);
  });

  it('a client that is not a trusted proxy cannot claim https', async () => {
    const claimed = await adminBrowser(untrusted.admin.url).signIn(
      { email: 'alice@example.com', password: PASSWORD },
      { 'x-forwarded-proto': 'https' },
    );
    expect(claimed.status).toBe(200);
    expect(cookieOf(claimed)).not.toMatch(/Secure/i);
  });

  it('X-Forwarded-For names the client only through a trusted proxy: from anyone else it escapes no limit', async () => {
    const attempt = (gw: RunningGateway, forwardedFor: string, i: number) =>
      adminBrowser(gw.admin.url).signIn(
        { email: `spoof-${forwardedFor}-${i}@example.com`, password: 'not the password' },
        { 'x-forwarded-for': forwardedFor },
      );
    // two at a time, the two gateways side by side
    const series = async (gw: RunningGateway, forwardedFor: (i: number) => string) => {
      const out: number[] = [];
      for (let i = 0; i < 22; i += 2) {
        const pair = await Promise.all([attempt(gw, forwardedFor(i), i), attempt(gw, forwardedFor(i + 1), i + 1)]);
        out.push(...pair.map((a) => a.status));
      }
      return out;
    };
    const [spoofed, first] = await Promise.all([
      // untrusted: each attempt claims another address, all count against 127.0.0.1
      series(untrusted, (i) => `203.0.113.${i}`),
      // trusted: the forwarded address is the client's
      series(trusted.gw, () => '198.51.100.1'),
    ]);
    expect(spoofed.filter((s) => s === 401)).toHaveLength(20);
    expect(spoofed.filter((s) => s === 429)).toHaveLength(2);
    expect(first.filter((s) => s === 401)).toHaveLength(20);
    expect(first.filter((s) => s === 429)).toHaveLength(2);
    // one client's refusals do not hold another behind the same proxy
    expect((await attempt(trusted.gw, '198.51.100.2', 0)).status).toBe(401);
    // a chain: the last address a trusted proxy (10.x) did not add is the client's
    expect((await attempt(trusted.gw, '198.51.100.1, 10.1.2.3', 99)).status).toBe(429);
  });
});
