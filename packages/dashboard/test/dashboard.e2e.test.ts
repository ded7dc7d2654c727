import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './launchChromium.js';
import { ensureDashboardBuilt, REPO_ROOT, type StartedGateway, startGateway } from './startGateway.js';

// The dashboard in Debian's Chromium against a real gateway (the built CLI on its embedded defaults).

const SHOTS = join(REPO_ROOT, '.test-results', 'dashboard-screenshots');
const VIEWER = { email: 'viewer@example.com', password: 'viewer-password-1' };

let gw: StartedGateway;
let operator: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const pagesServers: Server[] = [];

async function shot(p: Page, name: string): Promise<void> {
  await p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function rpc(url: string, init: RequestInit = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  return { status: res.status, body: (await res.json()) as { result?: string; error?: { code: number } } };
}

/** A tiny page on its own origin (node:http), from which the browser calls the gateway. */
async function servePage(host: string): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dapp</title><p>dapp</p>');
  });
  pagesServers.push(server);
  await new Promise<void>((r) => server.listen(0, host === 'localhost' ? '127.0.0.1' : host, r));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

/** `fetch` from a page on `origin` to the endpoint: what the browser saw. */
async function fetchFrom(origin: string, endpoint: string) {
  const p = await operator.context.newPage();
  try {
    await p.goto(`${origin}/`);
    return await p.evaluate(async (url) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      });
      return { status: res.status, body: (await res.json()) as { result?: string; error?: { code: number } } };
    }, endpoint);
  } finally {
    await p.close();
  }
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  ensureDashboardBuilt();
  gw = await startGateway();
  operator = await launchChromium({ clipboard: true });
  page = await operator.context.newPage();
  operator.context.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await operator?.close();
  for (const s of pagesServers) s.close();
  await gw?.stop();
});

describe('the dashboard, in Chromium, against a real gateway', () => {
  let key = '';
  let endpoint = '';
  let inviteUrl = '';

  it('serves the app with caching headers and a strict CSP; / redirects to /dashboard', async () => {
    const root = await fetch(`${gw.ready.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/dashboard');
    const index = await fetch(gw.ready.dashboard.url);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline scripts
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const js = await fetch(`${gw.ready.url}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    const deep = await fetch(`${gw.ready.dashboard.url}/keys/abc`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    expect((await fetch(`${gw.ready.url}/dashboard/assets/missing-123.js`)).status).toBe(404);
    const config = (await (await fetch(`${gw.ready.url}/dashboard/config.json`)).json()) as {
      networks: Record<string, { http: string }>;
      ipfs: string | null;
    };
    expect(Object.keys(config.networks).sort()).toEqual(Object.keys(gw.ready.networks).sort());
    expect(config.ipfs).toBe(gw.ready.ipfs ?? null);
  });

  it('signs in through the one-time link, and the session survives a reload', async () => {
    const csp: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
    });
    await page.goto(gw.ready.dashboard.signInUrl);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/keys');
    await page.reload();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(csp).toEqual([]);
    // the link was used once: it does not sign in again
    const second = await launchChromium();
    try {
      const p = await second.context.newPage();
      await p.goto(gw.ready.dashboard.signInUrl);
      await p.getByTestId('sign-in-error').waitFor();
      expect(await p.getByTestId('sign-in-error').textContent()).toMatch(/invalid, expired or already used/);
      await shot(p, '01-sign-in-refused');
    } finally {
      await second.close();
    }
  });

  it('creates a key: the secret is shown once with a warning and copy buttons', async () => {
    await page.getByTestId('create-key').click();
    await page.getByRole('dialog').getByLabel('Name').fill('e2e-dapp');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Copy the secret now').waitFor();
    key = await page.getByTestId('new-key').inputValue();
    const secret = await page.getByTestId('new-secret').inputValue();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(secret.length).toBeGreaterThan(16);
    await page.getByRole('button', { name: 'Copy API key secret', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot(page, '03-key-created');
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    const row = page.locator(`tr[data-key="${key}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('e2e-dapp');
    await shot(page, '02-keys');
  });

  it('shows the endpoints and snippets; the copied endpoint answers eth_blockNumber', async () => {
    await page.getByRole('link', { name: 'e2e-dapp', exact: true }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    const eth = Object.entries(gw.ready.networks).find(([, n]) => n.family === 'eth')!;
    const [ethName] = eth;
    // this gateway runs without TLS: the endpoints are labelled HTTP and WS (HTTPS/WSS only with https:// URLs)
    expect(eth[1].http).toMatch(/^http:\/\//);
    await page.getByRole('button', { name: `Copy ${ethName} WS`, exact: true }).waitFor();
    await page.getByRole('button', { name: `Copy ${ethName} HTTP`, exact: true }).click();
    endpoint = await page.evaluate(() => navigator.clipboard.readText());
    expect(endpoint).toBe(await page.getByTestId(`endpoint-https-${ethName}`).inputValue());
    expect(endpoint).toBe(`${eth[1].http}/v3/${key}`);
    expect(await page.getByTestId(`endpoint-wss-${ethName}`).inputValue()).toBe(`${eth[1].ws}/ws/v3/${key}`);
    expect(await page.getByTestId('snippet-curl').textContent()).toContain(endpoint);
    await page.getByRole('tab', { name: 'viem' }).click();
    expect(await page.getByTestId('snippet-viem').textContent()).toContain(endpoint);
    await page.getByRole('tab', { name: 'starknet.js' }).click();
    expect(await page.getByTestId('snippet-starknet').textContent()).toContain(`/v3/${key}`);
    if (gw.ready.ipfs) {
      await page.getByRole('tab', { name: 'kubo-rpc-client' }).click();
      expect(await page.getByTestId('snippet-kubo').textContent()).toContain(key);
    }
    const answer = await rpc(endpoint);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatch(/^0x[0-9a-f]+$/);
  });

  it('shows the request in the key usage chart and in the request explorer', async () => {
    // usage is flushed every second: refresh until the request is counted
    await until('the request in the usage totals', async () => {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page.waitForTimeout(400);
      const text = await page
        .getByTestId('usage-total-requests')
        .textContent()
        .catch(() => '0');
      return Number(text?.replace(/,/g, '')) >= 1;
    });
    // the requests-by-network chart drew an area for it
    await page.locator('[data-testid="usage-panel"] .recharts-area-area').first().waitFor();
    await shot(page, '04-key-detail');

    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    await until('the account usage', async () => {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page.waitForTimeout(400);
      const text = await page
        .getByTestId('usage-total-requests')
        .textContent()
        .catch(() => '0');
      return Number(text?.replace(/,/g, '')) >= 1;
    });
    await page.getByTestId('top-methods').getByText('eth_blockNumber').waitFor();
    await page.locator('label', { hasText: '24 h' }).click();
    await page.getByTestId('top-methods').getByText('eth_blockNumber').waitFor();
    await shot(page, '05-usage');

    await page.goto(`${gw.ready.dashboard.url}/requests?key=${key}`);
    await page.getByRole('heading', { name: 'Request explorer' }).waitFor();
    const row = page.locator('[data-testid="requests-table"] tr[data-method="eth_blockNumber"]');
    await until('the request in the explorer', async () => {
      if ((await row.count()) > 0) return true;
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page.waitForTimeout(300);
      return false;
    });
    expect(await row.first().getAttribute('data-status')).toBe('200');
    await shot(page, '06-requests');
  });

  it('an origin allowlist set in the UI refuses other origins (403, -32002) and admits the allowed one', async () => {
    const refusedOrigin = await servePage('127.0.0.1');
    const allowedOrigin = await servePage('localhost');
    await page.goto(`${gw.ready.dashboard.url}/keys/${key}`);
    const origins = page.getByTestId('setting-allowedOrigins');
    // a validation message from the API, shown at the field
    await origins.fill('not an origin!');
    await page.getByRole('button', { name: 'Save settings', exact: true }).click();
    await page.getByTestId('settings-error').waitFor();
    expect(await page.getByTestId('settings-error').textContent()).toMatch(/allowedOrigins/);
    await shot(page, '07-settings-validation');
    await origins.fill(allowedOrigin);
    await page.getByRole('button', { name: 'Save settings', exact: true }).click();
    await page.getByTestId('settings-saved').waitFor();

    const refused = await until('the allowlist to apply', async () => {
      const r = await fetchFrom(refusedOrigin, endpoint);
      return r.status === 403 ? r : undefined;
    });
    expect(refused.body.error?.code).toBe(-32002);
    const allowed = await fetchFrom(allowedOrigin, endpoint);
    expect(allowed.status).toBe(200);
    expect(allowed.body.result).toMatch(/^0x/);

    // the explorer names the rule that refused it
    await page.goto(`${gw.ready.dashboard.url}/requests?key=${key}`);
    await page.getByTestId('filter-status').click();
    await page.getByRole('option', { name: '403', exact: true }).click();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const refusal = page.locator('[data-testid="requests-table"] tr[data-status="403"] [data-testid="refusal"]');
    await until('the refusal in the explorer', async () => {
      if ((await refusal.count()) > 0) return true;
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page.waitForTimeout(300);
      return false;
    });
    expect(await refusal.first().textContent()).toContain('origin');
    expect(await page.locator('[data-testid="requests-table"] tr[data-status="200"]').count()).toBe(0);
    await shot(page, '08-requests-refused');
  });

  it('shows the plan and the team', async () => {
    await page.getByRole('link', { name: 'Plan', exact: true }).click();
    await page.getByTestId('plan-used-today').waitFor();
    await shot(page, '09-plan');
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByTestId('members-table').waitFor();
    await shot(page, '10-team');
    // an owner invites: the link is shown once, the invitation is pending until accepted
    await page.getByRole('button', { name: 'Invite member', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Email').fill(VIEWER.email);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    inviteUrl = await page.getByTestId('invite-url').inputValue();
    expect(inviteUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/invite#token=[\w-]{43}$/);
    await shot(page, '10b-invitation-link');
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.getByTestId('invitations-table').getByText(VIEWER.email).waitFor();
  });

  it('a viewer accepts the invitation with a password of their own, signs in again (a wrong password is refused) and sees no create button', async () => {
    // nobody sets another person's password: the API refuses it
    const auth = { authorization: `Bearer ${gw.ready.admin.token}`, 'content-type': 'application/json' };
    const accounts = (await (await fetch(`${gw.ready.admin.url}/accounts`, { headers: auth })).json()) as {
      id: string;
    }[];
    const refused = await fetch(`${gw.ready.admin.url}/accounts/${accounts[0]!.id}/members`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ...VIEWER, role: 'viewer' }),
    });
    expect(refused.status).toBe(400);

    const viewer = await launchChromium({ width: 375, height: 812 });
    try {
      const p = await viewer.context.newPage();
      await p.goto(inviteUrl);
      await p.getByTestId('invite-summary').waitFor();
      expect(await p.getByTestId('invite-summary').textContent()).toContain(`${VIEWER.email} is invited as viewer`);
      // the token left the address bar
      expect(p.url()).not.toContain('token');
      await p.getByLabel('Choose a password').fill(VIEWER.password);
      await p.getByLabel('The same password again').fill(VIEWER.password);
      await shot(p, '11a-invitation-accept-375px');
      await p.getByRole('button', { name: 'Accept and sign in', exact: true }).click();
      await p.getByRole('heading', { name: 'API keys' }).waitFor();
      // the link worked once
      const again = await viewer.context.newPage();
      await again.goto(inviteUrl);
      await again.getByTestId('invite-error').waitFor();
      expect(await again.getByTestId('invite-error').textContent()).toMatch(/invalid, expired or already used/);
      await again.close();
      // signed out, the viewer signs in with the password they chose
      await p.getByRole('button', { name: 'Sign out', exact: true }).click();
      await p.getByRole('heading', { name: 'Sign in to nodegate' }).waitFor();
      await p.getByLabel('Email').fill(VIEWER.email);
      await p.getByLabel('Password').fill('wrong-password-123');
      await p.getByRole('button', { name: 'Sign in', exact: true }).click();
      await p.getByTestId('sign-in-error').waitFor();
      expect(await p.getByTestId('sign-in-error').textContent()).toMatch(/wrong email or password/);
      await p.getByLabel('Password').fill(VIEWER.password);
      await p.getByRole('button', { name: 'Sign in', exact: true }).click();
      await p.getByRole('heading', { name: 'API keys' }).waitFor();
      await p.locator(`tr[data-key="${key}"]`).waitFor();
      expect(await p.getByTestId('create-key').count()).toBe(0);
      expect(await p.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      // it fits a 375 px screen: nothing overflows the page sideways
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shot(p, '11-keys-viewer-375px');
      await p.goto(`${gw.ready.dashboard.url}/keys/${key}`);
      await p.getByRole('heading', { name: 'Endpoints' }).waitFor();
      expect(await p.getByRole('button', { name: 'Save settings', exact: true }).count()).toBe(0);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shot(p, '12-key-detail-viewer-375px');
    } finally {
      await viewer.close();
    }
  });

  it('a revoked key disappears from the list and stops working (401)', async () => {
    await page.getByRole('link', { name: 'Keys', exact: true }).click();
    await page.locator(`tr[data-key="${key}"]`).waitFor();
    await page.getByRole('button', { name: 'Delete e2e-dapp', exact: true }).click();
    await page.getByText('This cannot be undone', { exact: false }).waitFor();
    await shot(page, '13-revoke-confirm');
    await page.getByTestId('confirm-revoke').click();
    await page.locator(`tr[data-key="${key}"]`).waitFor({ state: 'detached' });
    const after = await rpc(endpoint);
    expect(after.status).toBe(401);
  });

  it('signs out; the keyboard reaches the sign-in form', async () => {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to nodegate' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to nodegate' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await shot(page, '00-sign-in');
  });
});
