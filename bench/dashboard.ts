// `npm run bench -- dashboard [--runs N]`
//
// The dashboard as a browser gets it from the gateway, in Debian's Chromium (headless, as the tests
// drive it), against a same-run baseline:
//   baseline   a blank static page (one line of text) served by node:http on loopback
//   dashboard  GET /dashboard from a gateway started here (`nodegate start`, embedded defaults)
// Each run is a cold load (browser cache cleared). Prints the median first contentful paint
// (performance.getEntriesByName('first-contentful-paint')) and the ratio to the baseline, then the
// gzipped size of every JavaScript file the dashboard can load (goal: under 300 KB in total) and of
// the JavaScript the first screen actually loaded.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchChromium } from '../packages/dashboard/test/launchChromium.js';
import { ensureDashboardBuilt, PACKAGE_DIR, startGateway } from '../packages/dashboard/test/startGateway.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(values.runs);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function fcp(page: Page, url: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await page.goto(url, { waitUntil: 'load' });
  const value = await page.waitForFunction(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    undefined,
    { timeout: 10_000 },
  );
  await cdp.detach();
  return (await value.jsonValue()) as number;
}

ensureDashboardBuilt();
const blank = createServer((_req, res) => {
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
    .end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body><p>blank page</p></body></html>',
    );
});
await new Promise<void>((r) => blank.listen(0, '127.0.0.1', r));
const blankUrl = `http://127.0.0.1:${(blank.address() as AddressInfo).port}/`;
const gw = await startGateway();
const chromium = await launchChromium();
try {
  const page = await chromium.context.newPage();
  const loadedJs = new Map<string, number>();
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return;
    const body = await res.body().catch(() => undefined);
    if (body) loadedJs.set(res.url(), gzipSync(body, { level: 9 }).length);
  });
  // warm-up: one load of each (the gateway's and Chromium's first-run costs)
  await fcp(page, blankUrl);
  await fcp(page, gw.ready.dashboard.url);
  const base: number[] = [];
  const dash: number[] = [];
  for (let i = 0; i < runs; i++) {
    base.push(await fcp(page, blankUrl));
    dash.push(await fcp(page, gw.ready.dashboard.url));
  }
  const assets = join(PACKAGE_DIR, 'dist', 'assets');
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const sizes = files.map((f) => ({ f, gz: gzipSync(readFileSync(join(assets, f)), { level: 9 }).length }));
  const total = sizes.reduce((a, b) => a + b.gz, 0);
  const first = [...loadedJs.values()].reduce((a, b) => a + b, 0);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`first contentful paint, median of ${runs} cold loads (Chromium headless, loopback)`);
  console.log(
    `  baseline  blank static page (node:http)  ${median(base).toFixed(0)} ms   [${base.map((x) => x.toFixed(0)).join(', ')}]`,
  );
  console.log(
    `  dashboard GET /dashboard (gateway)       ${median(dash).toFixed(0)} ms   [${dash.map((x) => x.toFixed(0)).join(', ')}]`,
  );
  console.log(
    `  ratio dashboard/baseline                 ${(median(dash) / median(base)).toFixed(2)}   goal: dashboard < 1000 ms`,
  );
  console.log('JavaScript, gzipped (level 9)');
  for (const s of sizes) console.log(`  ${s.f.padEnd(34)} ${kb(s.gz)}`);
  console.log(`  all JS the dashboard can load       ${kb(total)}   goal: < 300 KB`);
  console.log(`  JS loaded by the first screen       ${kb(first)}   (the charts chunk loads with the first chart)`);
} finally {
  await chromium.close();
  await gw.stop();
  blank.close();
}
