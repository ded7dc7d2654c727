import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth } from '../ipfs/startIpfsTestGateway.js';
import { type GatewayTestbed, startGatewayTestbed } from './startGatewayTestbed.js';

// A real browser (Debian's Chromium, headless) on a page added as a directory through /api/v0: its
// image and its script load through a dedicated gateway's path form and its subdomain form (the
// host form redirecting there), the script reads a large file in parts with Range, and content
// another account pinned is refused. Screenshots go to .test-results/.

const ROOT = new URL('../../../../', import.meta.url).pathname;
const SHOTS = join(ROOT, '.test-results');
const BIG = Buffer.alloc(3 * 1024 * 1024 + 17);
for (let i = 0; i < BIG.length; i++) BIG[i] = i % 251;

/** A 96×96 PNG: a blue square with a yellow band, made here (zlib, CRC-32). */
function png(): Buffer {
  const size = 96;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const band = y > 40 && y < 56;
      row.set(band ? [250, 200, 20] : [30, 80, 200], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const INDEX = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>loading</title>
<style>body{font-family:sans-serif;margin:24px}#status{font-size:20px}</style></head>
<body><h1>A site on IPFS, through nodegate</h1>
<img id="logo" src="img/logo.png" width="96" height="96" alt="logo">
<p id="status">script not run</p><p id="range">not read yet</p>
<script src="app.js"></script></body></html>`;

const APP = `document.getElementById('status').textContent = 'script ran';
document.title = 'site ready';
(async () => {
  const part = await fetch('data.bin', { headers: { Range: 'bytes=2000000-2000999' } });
  const bytes = new Uint8Array(await part.arrayBuffer());
  let ok = bytes.length === 1000;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== (2000000 + i) % 251) ok = false;
  document.getElementById('range').textContent = 'range ' + part.status + ' ' + bytes.length + ' ' + (ok ? 'exact' : 'wrong') + ' ' + part.headers.get('content-range');
})();
`;

let tb: GatewayTestbed;
let browser: Browser;
let site: string;
let theirs: string;

beforeAll(async () => {
  tb = await startGatewayTestbed();
  for await (const r of tb.kubo.addAll(
    [
      { path: 'site/index.html', content: Buffer.from(INDEX) },
      { path: 'site/app.js', content: Buffer.from(APP) },
      { path: 'site/img/logo.png', content: png() },
      { path: 'site/data.bin', content: BIG },
    ],
    { cidVersion: 1, rawLeaves: true },
  )) {
    if (r.path === 'site') site = r.cid.toString();
  }
  const other = await tb.admin.createAccount({ name: 'other', plan: 'core' });
  const key = await tb.admin.createKey({ accountId: other.id });
  theirs = (
    await tb.kuboOf(basicAuth(key.key, key.secret)).add('<h1>another account</h1>', { cidVersion: 1 })
  ).cid.toString();
  await mkdir(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP *.localhost 127.0.0.1',
    ],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await tb?.stop();
});

/** Opens `url`, waits for the script's Range read, and returns what the page shows. */
async function open(url: string, shot: string) {
  const page = await browser.newPage({ viewport: { width: 800, height: 480 } });
  try {
    const response = await page.goto(url);
    // page code as text: it runs in the browser (this package's types have no DOM); the element
    // reads "not read yet" until the script's Range read has an answer
    await page.waitForFunction("document.getElementById('range')?.textContent?.startsWith('range ')", undefined, {
      timeout: 20_000,
    });
    const shown = (await page.evaluate(`(() => {
      const img = document.getElementById('logo');
      return {
        title: document.title,
        script: document.getElementById('status').textContent,
        range: document.getElementById('range').textContent,
        image: { complete: img.complete, width: img.naturalWidth, height: img.naturalHeight },
        origin: location.origin,
      };
    })()`)) as {
      title: string;
      script: string;
      range: string;
      image: { complete: boolean; width: number; height: number };
      origin: string;
    };
    await page.screenshot({ path: join(SHOTS, shot) });
    return { status: response?.status(), url: page.url(), ...shown };
  } finally {
    await page.close();
  }
}

describe('a browser through a dedicated gateway', () => {
  it('renders the page by the path form: its image decodes, its script runs, Range reads exact bytes', async () => {
    const shown = await open(`${tb.url}/ipfs-gateway/dev/ipfs/${site}/`, 'ipfs-gateway-path-form.png');
    expect(shown.status).toBe(200);
    expect(shown.title).toBe('site ready');
    expect(shown.script).toBe('script ran');
    expect(shown.image).toEqual({ complete: true, width: 96, height: 96 });
    expect(shown.range).toBe(`range 206 1000 exact bytes 2000000-2000999/${BIG.length}`);
  });

  it('renders it by the subdomain form, where the host form sends it (its own origin)', async () => {
    const shown = await open(`http://dev.ipfs.localhost:${tb.port}/ipfs/${site}/`, 'ipfs-gateway-subdomain-form.png');
    expect(shown.url).toBe(`http://${site}.ipfs.dev.ipfs.localhost:${tb.port}/`);
    expect(shown.origin).toBe(`http://${site}.ipfs.dev.ipfs.localhost:${tb.port}`);
    expect(shown.title).toBe('site ready');
    expect(shown.image).toEqual({ complete: true, width: 96, height: 96 });
    expect(shown.range).toBe(`range 206 1000 exact bytes 2000000-2000999/${BIG.length}`);
  });

  it('refuses content another account pinned (403), by either form', async () => {
    const page = await browser.newPage();
    try {
      const byPath = await page.goto(`${tb.url}/ipfs-gateway/dev/ipfs/${theirs}`);
      expect(byPath?.status()).toBe(403);
      expect(await page.textContent('body')).toContain('serves only content its account pinned');
      const bySubdomain = await page.goto(`http://${theirs}.ipfs.dev.ipfs.localhost:${tb.port}/`);
      expect(bySubdomain?.status()).toBe(403);
      await page.screenshot({ path: join(SHOTS, 'ipfs-gateway-refused.png') });
    } finally {
      await page.close();
    }
  });
});
