/**
 * Real-browser e2e (issue 14): the demo dApp (`browser-demo/`, built with Vite) in Debian's Chromium driven by
 * playwright-core. The page finds the nodegate wallet through get-starknet v4 discovery and uses starknet.js
 * `WalletAccount`; its `window.ethereum` (and EIP-6963 announcement as `io.metamask`) is injected by the test and
 * bridged to the simulated MetaMask + the real snap running in Node (`startWalletHarness`). The page is served from
 * its own loopback origin (another port than nodegate's), so every Starknet RPC call it makes is cross-origin: the
 * browser sends a CORS preflight (JSON bodies are not a "simple" request), watched through the DevTools protocol, and
 * nodegate's answers must allow the page. Screenshots go to `.artifacts/` and to the repository's
 * `.test-results/wallet-screenshots/` (kept as CI artifacts).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { hash, num, typedData as td } from 'starknet';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWalletHarness, type WalletHarness } from './testing/startWalletHarness.js';

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..');
const DEMO = join(PKG, 'browser-demo');
const OUT = join(PKG, 'dist', 'browser-demo');
const ARTIFACTS = join(PKG, '.artifacts');
/** Where scripts/test.mjs keeps results; CI uploads it. */
const RESULTS = join(PKG, '..', '..', '.test-results', 'wallet-screenshots');
const CHROMIUM = '/usr/bin/chromium';
const VALID = '0x56414c4944'; // 'VALID', what an Argent account's is_valid_signature returns

let h: WalletHarness | undefined;
let browser: Browser | undefined;
let server: Server | undefined;
let page: Page;
let snapAccount: string;
let pageOrigin: string;
const pageLog: string[] = [];
/** The page's own calls to nodegate (cross-origin): request Origin, status, the CORS header of the answer. */
const rpcCalls: { method: string; origin: string | undefined; status: number; allowOrigin: string | undefined }[] = [];
/** CORS preflights the browser sent to nodegate (DevTools protocol: an OPTIONS request, a `Preflight` response). */
const preflights = new Map<
  string,
  { url: string; requestHeaders: Record<string, string>; status?: number; headers?: Record<string, string> }
>();
const timings: Record<string, number> = {};

function harness(): WalletHarness {
  if (!h) throw new Error('harness not started');
  return h;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

/** Serves the built page on its own loopback origin (a different port from nodegate). */
function servePage(root: string): Promise<{ server: Server; origin: string }> {
  const srv = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0] ?? '/';
    const path = normalize(join(root, decodeURIComponent(url === '/' ? '/index.html' : url)));
    if (!path.startsWith(root) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' });
    res.end(readFileSync(path));
  });
  return new Promise((resolve) =>
    srv.listen(0, '127.0.0.1', () =>
      resolve({ server: srv, origin: `http://127.0.0.1:${(srv.address() as { port: number }).port}` }),
    ),
  );
}

/** Waits for a state element (`#<id>[data-state]`) to leave `busy`; fails with the page's message on `error`. */
async function waitState(id: string, timeoutMs = 90_000): Promise<string> {
  await page.waitForFunction(
    (sel) => {
      const s = document.getElementById(sel)?.dataset.state;
      return s === 'done' || s === 'error';
    },
    id,
    { timeout: timeoutMs, polling: 50 },
  );
  const node = page.locator(`#${id}`);
  const state = await node.getAttribute('data-state');
  const text = (await node.textContent()) ?? '';
  if (state !== 'done') throw new Error(`#${id}: ${text}\npage log:\n${pageLog.slice(-20).join('\n')}`);
  return text;
}

async function text(id: string): Promise<string> {
  return ((await page.locator(`#${id}`).textContent()) ?? '').trim();
}

async function screenshot(name: string): Promise<void> {
  const file = `browser-${name}.png`;
  await page.screenshot({ path: join(ARTIFACTS, file), fullPage: true });
  copyFileSync(join(ARTIFACTS, file), join(RESULTS, file));
}

/** Header names in lower case (the DevTools protocol keeps the server's spelling). */
const lower = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

beforeAll(async () => {
  // Fail (not skip) without the browser; scripts/services.sh installs Debian's chromium.
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing (run: bash scripts/services.sh)`);
  mkdirSync(ARTIFACTS, { recursive: true });
  mkdirSync(RESULTS, { recursive: true });

  let t = Date.now();
  rmSync(OUT, { recursive: true, force: true });
  await build({ configFile: join(DEMO, 'vite.config.ts'), mode: 'production', build: { outDir: OUT } });
  if (!existsSync(join(OUT, 'index.html'))) throw new Error('vite build produced no index.html');
  timings.viteBuild = Date.now() - t;

  t = Date.now();
  h = await startWalletHarness();
  timings.harness = Date.now() - t;

  // Fund and deploy the snap's first account (setup, as the integration test does, from Node).
  t = Date.now();
  const accounts = (await h.wallet.request({ type: 'wallet_requestAccounts' })) as string[];
  snapAccount = accounts[0] ?? '';
  expect(snapAccount).toMatch(/^0x[0-9a-fA-F]+$/);
  await h.fundAndDeploy(snapAccount);
  timings.fundAndDeploy = Date.now() - t;

  t = Date.now();
  const served = await servePage(OUT);
  server = served.server;
  pageOrigin = served.origin;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 } });
  // The page's MetaMask: every EIP-1193 request crosses to the harness provider in Node (JSON both ways, errors
  // with their code and data).
  const provider = h.provider;
  await context.exposeFunction('__nodegateEthereumBridge', async (payload: string): Promise<string> => {
    const { method, params } = JSON.parse(payload) as { method: string; params?: unknown };
    try {
      return JSON.stringify({ result: (await provider.request({ method, params })) ?? null });
    } catch (error) {
      const e = error as { code?: number; message?: string; data?: unknown };
      return JSON.stringify({ error: { code: e.code, message: e.message ?? String(error), data: e.data } });
    }
  });
  await context.addInitScript(() => {
    type Bridge = (payload: string) => Promise<string>;
    const w = window as unknown as Record<string, unknown>;
    const provider = {
      isMetaMask: true,
      async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
        const bridge = w.__nodegateEthereumBridge as Bridge;
        const out = JSON.parse(await bridge(JSON.stringify({ method, params }))) as {
          result?: unknown;
          error?: { code?: number; message: string; data?: unknown };
        };
        if (out.error) {
          throw Object.assign(new Error(out.error.message), { code: out.error.code, data: out.error.data });
        }
        return out.result;
      },
    };
    w.ethereum = provider;
    const detail = Object.freeze({
      info: Object.freeze({
        uuid: '5b1c1f2e-6d3a-4c8e-9a51-0e7f4b6f1d2a',
        name: 'MetaMask',
        icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
        rdns: 'io.metamask',
      }),
      provider,
    });
    const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
  });
  page = await context.newPage();
  page.on('console', (m) => pageLog.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => pageLog.push(`[pageerror] ${e.message}`));
  const rpcOrigin = new URL(h.rpcUrl).origin;
  page.on('response', async (r) => {
    if (new URL(r.url()).origin !== rpcOrigin) return;
    const headers = await r.request().allHeaders();
    rpcCalls.push({
      method: r.request().method(),
      origin: headers.origin,
      status: r.status(),
      allowOrigin: r.headers()['access-control-allow-origin'],
    });
  });
  page.on('requestfailed', (r) => pageLog.push(`[requestfailed] ${r.url()} ${r.failure()?.errorText}`));
  // Preflights are made by the browser's network service, not by the page: Playwright's request events do not show
  // them, the DevTools protocol does.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.request.method === 'OPTIONS' && new URL(e.request.url).origin === rpcOrigin) {
      preflights.set(e.requestId, { url: e.request.url, requestHeaders: lower(e.request.headers) });
    }
  });
  cdp.on('Network.responseReceived', (e) => {
    const seen = preflights.get(e.requestId);
    if (seen && e.type === 'Preflight') {
      seen.status = e.response.status;
      seen.headers = lower(e.response.headers);
    }
  });
  const query = new URLSearchParams({ rpc: h.rpcUrl, snap: h.wallet.snap.snapId, chain: h.chainId });
  await page.goto(`${served.origin}/?${query}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  timings.browserReady = Date.now() - t;
}, 420_000);

afterAll(async () => {
  console.log(`browser e2e timings (ms): ${JSON.stringify(timings)}`);
  await browser?.close().catch(() => {});
  if (server) await new Promise((resolve) => server?.close(resolve));
  await h?.close();
});

describe('demo dApp in Chromium: get-starknet discovery + WalletAccount → the connector → the real snap', () => {
  it('connects: shows the snap account address and its STRK balance as nodegate reports it', async () => {
    const t = Date.now();
    const requestsBefore = harness().provider.requests.length;
    await page.click('#connect');
    await waitState('connect-state');
    timings.connect = Date.now() - t;
    await screenshot('connect');
    expect((await text('wallets')).split(', ')).toContain('nodegate');
    expect(num.toHex(await text('address'))).toBe(num.toHex(snapAccount));
    expect(await text('chain')).toBe(harness().chainId);
    const shown = BigInt(await text('balance'));
    expect(shown).toBe(await harness().strkBalance(snapAccount));
    expect(shown > 0n).toBe(true);
    // The page's wallet went through the bridged MetaMask (not the Node-side wallet object).
    const bridged = harness().provider.requests.slice(requestsBefore);
    expect(bridged).toContain('wallet_invokeSnap');
    // The page read the balance itself, cross-origin from its own server to nodegate, allowed by CORS.
    expect(new URL(harness().rpcUrl).origin).not.toBe(pageOrigin);
    await expect.poll(() => rpcCalls.filter((c) => c.method === 'POST').length).toBeGreaterThan(0);
    const posts = rpcCalls.filter((c) => c.method === 'POST');
    for (const c of posts) {
      expect(c.origin).toBe(pageOrigin);
      expect(c.status).toBe(200);
      expect(['*', pageOrigin]).toContain(c.allowOrigin);
    }
    // Before its first POST the browser asked nodegate (OPTIONS) whether this origin may send JSON: a real
    // preflight, answered with a success that allows the origin, POST and the content-type header.
    await expect.poll(() => [...preflights.values()].filter((p) => p.status !== undefined).length).toBeGreaterThan(0);
    for (const p of preflights.values()) {
      if (p.status === undefined) continue;
      expect(p.requestHeaders.origin).toBe(pageOrigin);
      expect(p.requestHeaders['access-control-request-method']).toBe('POST');
      expect(p.requestHeaders['access-control-request-headers']?.toLowerCase()).toContain('content-type');
      expect(p.status >= 200 && p.status < 300).toBe(true);
      expect(['*', pageOrigin]).toContain(p.headers?.['access-control-allow-origin']);
      const methods = (p.headers?.['access-control-allow-methods'] ?? '').toUpperCase();
      expect(methods === '*' || methods.includes('POST')).toBe(true);
      const allowed = (p.headers?.['access-control-allow-headers'] ?? '').toLowerCase();
      expect(allowed === '*' || allowed.includes('content-type')).toBe(true);
    }
  });

  it('transfers STRK: the page shows the tx hash, it is accepted and the recipient balance moves (via nodegate)', async () => {
    const t = Date.now();
    const recipient = `0x${(0xb0000 + Math.floor(Math.random() * 0xffff)).toString(16)}`;
    const amount = 12_345n;
    const before = await harness().strkBalance(recipient);
    await page.fill('#recipient', recipient);
    await page.fill('#amount', amount.toString());
    await page.click('#transfer');
    await waitState('transfer-state');
    timings.transfer = Date.now() - t;
    await screenshot('transfer');
    const txHash = await text('tx-hash');
    expect(txHash).toMatch(/^0x[0-9a-f]+$/);
    expect(await text('tx-status')).toBe('SUCCEEDED');
    expect((await harness().waitAccepted(txHash)).execution_status).toBe('SUCCEEDED');
    const tx = await harness().rpc<{ sender_address: string }>('starknet_getTransactionByHash', {
      transaction_hash: txHash,
    });
    expect(num.toHex(tx.sender_address)).toBe(num.toHex(snapAccount));
    expect(await harness().strkBalance(recipient)).toBe(before + amount);
    // The balance on the page was refreshed after the transfer and matches nodegate.
    expect(BigInt(await text('balance'))).toBe(await harness().strkBalance(snapAccount));
  });

  it('signs SNIP-12 typed data: the account contract accepts the signature (is_valid_signature via nodegate)', async () => {
    const t = Date.now();
    const dialogsBefore = harness().user.dialogs;
    await page.click('#sign');
    await waitState('sign-state');
    timings.sign = Date.now() - t;
    await screenshot('sign');
    expect(harness().user.dialogs).toBe(dialogsBefore + 1);
    const message = JSON.parse(await text('typed-data')) as Parameters<typeof td.getMessageHash>[0];
    expect(message.domain.chainId).toBe('SN_SEPOLIA');
    const signature = JSON.parse(await text('signature')) as string[];
    expect(signature).toHaveLength(2);
    const msgHash = td.getMessageHash(message, snapAccount);
    const r = await harness().rpc<string[]>('starknet_call', {
      request: {
        contract_address: snapAccount,
        entry_point_selector: hash.getSelectorFromName('is_valid_signature'),
        calldata: [msgHash, '0x2', ...signature],
      },
      block_id: 'latest',
    });
    expect(num.toHex(r[0] ?? 0)).toBe(VALID);
  });
});
