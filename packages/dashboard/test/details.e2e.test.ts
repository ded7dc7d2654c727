import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './launchChromium.js';
import { ensureDashboardBuilt, REPO_ROOT, type StartedGateway, startGateway } from './startGateway.js';

// Issue 21's dashboard details, in Chromium against a real gateway (the built CLI, embedded
// defaults): the key page's snippets run as shown once an origin allowlist and the secret are
// required (curl through bash, viem, starknet.js and kubo-rpc-client through node), the contract
// allowlist's hint from the admin API, one explorer row for an IPFS request refused by origin,
// Kubo's errors shown as such, a row opened, and the IPFS quota explained (per key vs account).

const SHOTS = join(REPO_ROOT, '.test-results', 'dashboard-screenshots');
const RUN_DIR = join(REPO_ROOT, '.test-results', 'dashboard-snippets');
const ORIGIN = 'https://app.example.com';

let gw: StartedGateway;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let key = '';
let secret = '';

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The admin API with the operator's token. */
async function admin(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${gw.ready.admin.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${gw.ready.admin.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs a snippet as a user would paste it: bash for curl, node (the project's) for JavaScript. */
function run(kind: 'bash' | 'node', code: string, file: string) {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', API_KEY_SECRET: secret };
  const r =
    kind === 'bash'
      ? spawnSync('bash', ['-c', code], { env, encoding: 'utf8', timeout: 60_000 })
      : spawnSync(process.execPath, [file], { env, encoding: 'utf8', timeout: 60_000, cwd: REPO_ROOT });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr.trim() };
}

async function snippetText(id: string, tab: string): Promise<string> {
  await page.getByRole('tab', { name: tab }).click();
  return (await page.getByTestId(`snippet-${id}`).textContent()) ?? '';
}

const ipfs = (path: string, headers: Record<string, string>) =>
  fetch(`${gw.ready.ipfs}/api/v0/${path}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`, ...headers },
  }).then(async (r) => ({ status: r.status, body: await r.text() }));

async function explorerRows(): Promise<void> {
  await page.goto(`${gw.ready.dashboard.url}/requests?key=${key}`);
  await page.getByRole('heading', { name: 'Request explorer' }).waitFor();
}

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  await mkdir(RUN_DIR, { recursive: true });
  ensureDashboardBuilt();
  gw = await startGateway();
  browser = await launchChromium();
  browser.context.setDefaultTimeout(15_000);
  page = await browser.context.newPage();
  await page.goto(gw.ready.dashboard.signInUrl);
  await page.getByRole('heading', { name: 'API keys' }).waitFor();
  const created = await admin('POST', `/accounts/${(await admin('GET', '/accounts'))[0].id}/keys`, {
    name: 'details',
  });
  key = created.key;
  secret = created.secret;
});

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

describe('dashboard details (issue 21)', () => {
  it('the snippets run as shown with an origin allowlist and a required secret, and say why', async () => {
    await page.goto(`${gw.ready.dashboard.url}/keys/${key}`);
    await page.getByRole('heading', { name: 'Quick start' }).waitFor();
    // an open key: the notes say nothing
    expect(await page.getByTestId('snippet-notes-curl').count()).toBe(0);
    await page.getByTestId('setting-allowedOrigins').fill(ORIGIN);
    await page.getByLabel(/Require the API key secret/).check();
    await page.getByRole('button', { name: 'Save settings', exact: true }).click();
    await page.getByTestId('settings-saved').waitFor();

    const curl = await snippetText('curl', 'curl');
    expect(curl).toContain(`-H 'Origin: ${ORIGIN}'`);
    expect(curl).toContain('--user ":$API_KEY_SECRET"');
    const notes = (await page.getByTestId('snippet-notes-curl').textContent()) ?? '';
    expect(notes).toMatch(/Require secret is on/);
    expect(notes).toMatch(/origin allowlist is set/);
    await page.getByTestId('snippet-curl').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, '14-snippet-origin-secret.png') });

    // the allowlist applies (the origin line is what makes it pass), and the command runs as shown
    const withoutOrigin = run('bash', curl.replace(/^.*Origin:.*\n/m, ''), '');
    expect(JSON.parse(withoutOrigin.stdout).error.code).toBe(-32002);
    const shown = run('bash', curl, '');
    expect(shown.stderr).not.toMatch(/error/i);
    expect(JSON.parse(shown.stdout).result).toMatch(/^0x[0-9a-f]+$/);

    for (const [id, tab, expected] of [
      ['viem', 'viem', /^\d+n$/],
      ['starknet', 'starknet.js', /^\d+$/],
      ['kubo', 'kubo-rpc-client', /^(?:Qm|baf)\w+$/],
    ] as const) {
      const code = await snippetText(id, tab);
      expect(code).toContain(`origin: '${ORIGIN}'`);
      const file = join(RUN_DIR, `${id}.mjs`);
      await writeFile(file, code);
      const out = run('node', code, file);
      expect([id, out.status, out.stderr]).toEqual([id, 0, '']);
      expect(out.stdout).toMatch(expected);
    }
  });

  it("the contract allowlist's hint lists the methods it applies to, from the admin API, wallets included", async () => {
    await page.goto(`${gw.ready.dashboard.url}/keys/${key}`);
    const hint = page.getByTestId('contracts-hint');
    await hint.waitFor();
    const text = (await hint.textContent()) ?? '';
    const restrictions = await admin('GET', '/restrictions');
    const served = new Set(Object.values(gw.ready.networks).map((n) => n.family));
    const methods = (
      restrictions.contracts.methods as { method: string; family: string; readsAccount: boolean }[]
    ).filter((m) => served.has(m.family));
    expect(methods.length).toBeGreaterThan(10);
    for (const m of methods) expect(text).toContain(m.method);
    const accounts = (await page.getByTestId('contracts-hint-accounts').textContent()) ?? '';
    expect(accounts).toMatch(/wallet's balance, nonce or code/);
    for (const m of ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode']) expect(accounts).toContain(m);
    expect(accounts).not.toContain('eth_call');
    await hint.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, '15-contracts-hint.png') });
  });

  it('an IPFS request refused by origin is one explorer row; Kubo failures show the HTTP status and "Kubo error"', async () => {
    expect((await ipfs('version', { origin: 'https://evil.example.com' })).status).toBe(403);
    const failed = await ipfs('block/stat?arg=bafkqaaa-not-a-cid', { origin: ORIGIN });
    expect(failed.status).toBe(500);
    await explorerRows();
    // the kubo-rpc-client snippet's add (200), the refused version (403) and the failed block/stat (500)
    const ipfsRows = page.locator(
      '[data-testid="requests-table"] tr[data-transport="ipfs"]:is([data-status="403"], [data-status="500"])',
    );
    await until('the IPFS rows', async () => {
      if ((await ipfsRows.count()) >= 2) return true;
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      await page.waitForTimeout(400);
      return false;
    });
    // the API and the table agree: one row for the refused request, none named after the command
    const api = (await admin('GET', `/keys/${key}/requests?limit=200`)) as {
      transport: string;
      status: number;
      method: string;
    }[];
    const refused = api.filter((r) => r.transport === 'ipfs' && r.status === 403);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.method).toBe('(refused)');
    expect(await ipfsRows.count()).toBe(2);
    const refusedRow = page.locator('[data-testid="requests-table"] tr[data-transport="ipfs"][data-status="403"]');
    expect(await refusedRow.count()).toBe(1);
    expect(await refusedRow.getByTestId('refusal').textContent()).toContain('origin');
    expect(await refusedRow.getByTestId('status').textContent()).toBe('403 · Kubo error');
    const failedRow = page.locator('[data-testid="requests-table"] tr[data-transport="ipfs"][data-status="500"]');
    expect(await failedRow.getByTestId('status').textContent()).toBe('500 · Kubo error');
    expect(await page.getByTestId('requests-table').textContent()).not.toContain('-32603');
  });

  it('a row opens to what the explorer knows of it', async () => {
    await explorerRows();
    const row = page.locator('[data-testid="requests-table"] tr[data-method="eth_blockNumber"][data-status="200"]');
    await row.first().waitFor();
    const requestId = (await row.first().getAttribute('data-request-id'))!;
    await row.first().getByTestId('open-request').click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('request-facts').waitFor();
    expect(await drawer.getByTestId('request-id').inputValue()).toBe(requestId);
    const fact = async (name: string) =>
      (await drawer.locator(`tr[data-fact="${name}"] td`).first().textContent()) ?? '';
    expect(await fact('Method')).toBe('eth_blockNumber');
    expect(await fact('Params digest')).toMatch(/^not kept/);
    expect(await fact('HTTP status')).toBe('200');
    expect(await fact('Error code')).toBe('none');
    expect(await fact('Refusal')).toBe('none');
    expect(await fact('Transport')).toBe('HTTP (JSON-RPC)');
    expect(await fact('Failover')).toBe('no');
    expect(await fact('Latency')).toMatch(/^\d+\.\d ms$/);
    expect(await fact('Bytes in / out')).toMatch(/^\d+ B \/ \d+ B$/);
    // the same as the API says of it
    const detail = await admin('GET', `/keys/${key}/requests/${requestId}`);
    const upstream = detail.calls[0].upstream as string | null;
    if (upstream === null) expect(await fact('Upstream')).toMatch(/^none/);
    else expect(await fact('Upstream')).toBe(upstream);
    expect(await fact('Credits')).toBe(String(detail.calls[0].credits));
    await page.screenshot({ path: join(SHOTS, '16-request-detail.png') });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // the refused IPFS request: its rule and Kubo's status
    await page
      .locator('[data-testid="requests-table"] tr[data-transport="ipfs"][data-status="403"]')
      .getByTestId('open-request')
      .click();
    await drawer.getByTestId('request-facts').waitFor();
    expect(await fact('Refusal')).toBe('origin (origin not in the allowlist)');
    expect(await fact('Error code')).toMatch(/^Kubo error: HTTP 403/);
    expect(await fact('Error message')).toMatch(/^not kept/);
    expect(await fact('Transport')).toBe('IPFS (Kubo RPC)');
    await page.keyboard.press('Escape');
  });

  it("explains the IPFS quota: the key's own against the account's keys added up, from the API", async () => {
    const accountId = (await admin('GET', '/accounts'))[0].id as string;
    const account = await admin('GET', `/accounts/${accountId}/storage`);
    const perKey = account.maxStoredBytesPerKey as number;
    expect(account.maxStoredBytes).toBe(perKey * account.activeKeys);
    const gib = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GiB`;

    await page.goto(`${gw.ready.dashboard.url}/keys/${key}`);
    const keyNote = page.getByTestId('ipfs-quota-note');
    await keyNote.waitFor();
    expect(await keyNote.textContent()).toContain(`${gib(perKey)} is this key's own quota`);
    expect(await page.getByTestId('ipfs-stored').textContent()).toContain(`of ${gib(perKey)}`);

    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('heading', { name: 'Usage' }).waitFor();
    const accountNote = page.getByTestId('ipfs-quota-note');
    await accountNote.waitFor();
    const text = (await accountNote.textContent()) ?? '';
    expect(text).toContain(`${account.activeKeys} active keys × ${gib(perKey)} per key`);
    expect(text).toMatch(/the account has no quota of its own/);
    expect(await page.getByTestId('ipfs-stored').textContent()).toContain(`of ${gib(account.maxStoredBytes)}`);
    await accountNote.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, '17-usage-ipfs-quota.png') });
  });
});
