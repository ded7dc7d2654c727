import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './launchChromium.js';
import { ensureDashboardBuilt, REPO_ROOT, type StartedGateway, startGateway } from './startGateway.js';

// The operator's way into the dashboard beyond the first link, in Chromium against a real gateway:
// a password set on the Account page, then used on the sign-in page; a new link from the CLI.

const run = promisify(execFile);
const SHOTS = join(REPO_ROOT, '.test-results', 'dashboard-screenshots');
const BIN = join(REPO_ROOT, 'packages', 'gateway', 'bin', 'nodegate.mjs');
const FIRST = 'operator password 1';
const SECOND = 'operator password 2';

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
});
afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

async function signInWithPassword(p: Page, password: string): Promise<void> {
  await p.goto(`${gw.ready.dashboard.url}/sign-in`);
  await p.getByRole('textbox', { name: 'Email', exact: true }).fill('operator@localhost');
  await p.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

describe('the Account page: the operator’s password', () => {
  it('after the link, sets a first password; signed out, the sign-in page takes email and password', async () => {
    await page.goto(gw.ready.dashboard.signInUrl);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Set a password' }).waitFor();
    expect(await page.getByTestId('account-email').textContent()).toBe('operator@localhost');
    expect(await page.getByTestId('password-state').textContent()).toMatch(/No password yet/);
    // no current password is asked for a first one
    expect(await page.getByRole('textbox', { name: 'Current password', exact: true }).count()).toBe(0);

    // checked before it is sent: too short, then two that differ
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
    await page.getByRole('textbox', { name: 'Repeat the new password', exact: true }).fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('At least 10 characters.').waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(FIRST);
    await page.getByRole('textbox', { name: 'Repeat the new password', exact: true }).fill(`${FIRST}x`);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('The two new passwords differ.').waitFor();

    await page.getByRole('textbox', { name: 'Repeat the new password', exact: true }).fill(FIRST);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByTestId('password-changed').waitFor();
    // the page now knows a password is set
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    expect(await page.getByTestId('password-state').textContent()).toMatch(/Signs in with a password/);
    await page.screenshot({ path: join(SHOTS, '20-account-password.png'), fullPage: true });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to nodegate' }).waitFor();
    await signInWithPassword(page, 'not the password');
    await page.getByTestId('sign-in-error').waitFor();
    expect(await page.getByTestId('sign-in-error').textContent()).toMatch(/wrong email or password/);
    await signInWithPassword(page, FIRST);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
  });

  it('changing it asks for the current one: a wrong one is named on its field; the right one changes it', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await page.getByRole('textbox', { name: 'Current password', exact: true }).fill('wrong current password');
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(SECOND);
    await page.getByRole('textbox', { name: 'Repeat the new password', exact: true }).fill(SECOND);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('wrong password', { exact: true }).waitFor();

    await page.getByRole('textbox', { name: 'Current password', exact: true }).fill(FIRST);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByTestId('password-changed').waitFor();
    // this session stays signed in
    await page.reload();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();

    const other = await launchChromium();
    try {
      const p = await other.context.newPage();
      await signInWithPassword(p, FIRST);
      await p.getByTestId('sign-in-error').waitFor();
      await signInWithPassword(p, SECOND);
      await p.getByRole('heading', { name: 'API keys' }).waitFor();
    } finally {
      await other.close();
    }
  });

  it('a new one-time link from `nodegate admin sign-in-link` signs in a browser that has none', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'admin', 'sign-in-link', '--data-dir', gw.dataDir]);
    const link = stdout.trim();
    expect(link.startsWith(`${gw.ready.dashboard.url}/sign-in?token=`)).toBe(true);
    const other = await launchChromium();
    try {
      const p = await other.context.newPage();
      await p.goto(link);
      await p.getByRole('heading', { name: 'API keys' }).waitFor();
      expect(await p.getByTestId('signed-in-as').textContent()).toBe('operator@localhost');
    } finally {
      await other.close();
    }
  });
});
