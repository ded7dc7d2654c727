import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './launchChromium.js';
import { ensureDashboardBuilt, REPO_ROOT, type StartedGateway, startGateway } from './startGateway.js';

// The dashboard's Gateways page in Debian's Chromium against a real gateway (the built CLI on its
// embedded defaults): the development account's gateway and its URL, a new gateway, a token shown
// once that then opens the restricted gateway, and the account's bandwidth today.

const SHOTS = join(REPO_ROOT, '.test-results', 'dashboard-screenshots');
let gw: StartedGateway;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;

beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
  ensureDashboardBuilt();
  gw = await startGateway();
  browser = await launchChromium();
  browser.context.setDefaultTimeout(15_000);
  page = await browser.context.newPage();
  await page.goto(gw.ready.dashboard.signInUrl);
  await page.getByRole('link', { name: 'Gateways' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

describe('the Gateways page', () => {
  it("shows the development account's gateway with its path form and the bandwidth today", async () => {
    await page.getByRole('link', { name: 'Gateways' }).click();
    await page.getByTestId('gateway-dev').waitFor();
    const url = await page.getByTestId('gateway-url-dev').inputValue();
    expect(url).toBe(`${gw.ready.url}/ipfs-gateway/dev`);
    expect((gw.ready as { ipfsGateway?: string }).ipfsGateway).toBe(url);
    await expect(page.getByTestId('gateway-bandwidth').textContent()).resolves.toContain('Gateway bandwidth today');
  });

  it('creates a gateway and a token; the token (shown once) opens the restricted gateway', async () => {
    await page.getByTestId('gateway-name').fill('from-dashboard');
    await page.getByRole('button', { name: 'Create gateway' }).click();
    const card = page.getByTestId('gateway-from-dashboard');
    await card.waitFor();
    await card.getByPlaceholder('what it is for').fill('e2e');
    await card.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByTestId('gateway-token').inputValue();
    expect(token).toMatch(/^ngt_/);
    await page.screenshot({ path: join(SHOTS, 'gateways.png'), fullPage: true });

    // content nobody pins: refused by the restricted gateway, served with the token
    const form = new FormData();
    form.append('file', new Blob([`unpinned ${Date.now()}`]), 'u.txt');
    const auth = `Basic ${Buffer.from(`${gw.ready.devKey!.key}:${gw.ready.devKey!.secret}`).toString('base64')}`;
    const added = (await (
      await fetch(`${gw.ready.ipfs}/api/v0/add?pin=false&cid-version=1`, {
        method: 'POST',
        headers: { authorization: auth },
        body: form,
      })
    ).json()) as { Hash: string };
    const base = `${gw.ready.url}/ipfs-gateway/from-dashboard/ipfs/${added.Hash}`;
    expect((await fetch(base)).status).toBe(403);
    expect((await fetch(`${base}?token=${token}`)).status).toBe(200);
  });
});
