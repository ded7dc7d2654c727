/**
 * `npm run snap` (scripts/serveSnap.mjs) as a developer uses it: a real nodegate is started (the Starknet dev network
 * of the default config), the script builds the snap with the development key it finds in the gateway's data
 * directory and serves it; MetaMask's own loader (snaps-controllers `detectSnapLocation` + `fetchSnap`, which checks
 * the manifest's shasum) fetches it, and snaps-simulation installs it from that id and calls the gateway through it.
 * get-starknet's default snap id is the one the script serves.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { detectSnapLocation, fetchSnap } from '@metamask/snaps-controllers/node';
import { installSnap } from '@metamask/snaps-simulation';
import { getSnapChecksum, VirtualFile } from '@metamask/snaps-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SNAP_ID, SN_SEPOLIA } from './constants.js';

const run = promisify(execFile);
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCRIPT = join(REPO, 'scripts', 'serveSnap.mjs');
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

const children: ChildProcess[] = [];
let work: string;
let out: string;
let snapId: string;
let port: number;
let output = '';
let devKey: string;

/** Waits until `read()` gives a value, or throws naming `what` (with the process's output). */
async function waitFor<T>(read: () => T | undefined, child: ChildProcess, what: string, output: () => string) {
  const end = Date.now() + 200_000;
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    if (child.exitCode !== null) throw new Error(`${what}: the process exited (${child.exitCode}):\n${output()}`);
    if (Date.now() > end) throw new Error(`${what}: timed out:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A GET to the snap server with these headers (node:http, so `Host` can be set). */
function get(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'served-snap-'));
  // built inside the repository (as the other snap builds of these tests), so the build resolves its dependencies
  mkdirSync(join(REPO, 'packages', 'get-starknet', 'dist'), { recursive: true });
  out = mkdtempSync(join(REPO, 'packages', 'get-starknet', 'dist', 'served-snap-'));
  // nodegate with the default config's Starknet dev network (no Ethereum or IPFS backends: quicker)
  const dataDir = join(work, 'gw');
  const config = join(work, 'nodegate.json');
  writeFileSync(
    config,
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir,
      devKey: true,
      networks: [
        {
          name: 'starknet-devnet',
          family: 'starknet',
          chainId: 'SN_SEPOLIA',
          dev: true,
          pathPrefix: '/starknet-devnet',
          upstreams: [{ name: 'starknet-devchain', embedded: 'starknet-devchain' }],
        },
      ],
    }),
  );
  const ready = join(work, 'ready.json');
  const cli = join(REPO, 'packages', 'gateway', 'dist', 'cli', 'main.js');
  const gateway = spawn(process.execPath, [cli, 'start', '--config', config, '--ready-file', ready], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(gateway);
  let gatewayErr = '';
  gateway.stderr?.on('data', (d: Buffer) => (gatewayErr = (gatewayErr + d.toString()).slice(-4000)));
  const r = await waitFor(
    () =>
      existsSync(ready)
        ? (JSON.parse(readFileSync(ready, 'utf8')) as { networks: Record<string, { http: string }> })
        : undefined,
    gateway,
    'nodegate',
    () => gatewayErr,
  );
  devKey = (JSON.parse(readFileSync(join(dataDir, 'dev-key.json'), 'utf8')) as { key: string }).key;
  // the script as `npm run snap` runs it, told where this gateway keeps its data and where it serves the network
  const snap = spawn(
    process.execPath,
    [SCRIPT, '--port', '0', '--data-dir', dataDir, '--url', r.networks['starknet-devnet']!.http, '--out', out],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(snap);
  snap.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  snap.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  snapId = await waitFor(
    () => /snap id +(local:http:\/\/localhost:\d+)/.exec(output)?.[1],
    snap,
    'npm run snap',
    () => output,
  );
  port = Number(new URL(snapId.slice('local:'.length)).port);
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  if (work) rmSync(work, { recursive: true, force: true });
  if (out) rmSync(out, { recursive: true, force: true });
});

describe('npm run snap', () => {
  it("serves a snap MetaMask's loader fetches, with a manifest shasum that matches its bundle and icon", async () => {
    // MetaMask's loader: it checks the manifest's shasum against the files it fetched (throws on a mismatch)
    const files = await fetchSnap(snapId as never, detectSnapLocation(snapId, { allowLocal: true }));
    expect(files.manifest.result.proposedName).toBe('nodegate Starknet');
    expect(files.svgIcon).toBeDefined();
    // and again with the snaps-utils the build tool (mm-snap) uses, over the bytes served
    const manifest = JSON.parse(files.manifest.toString()) as { source: { shasum: string } };
    const bundle = new Uint8Array(files.sourceCode.value as Uint8Array);
    const served = (sourceCode: Uint8Array) => ({
      manifest: new VirtualFile({ value: files.manifest.toString(), path: 'snap.manifest.json', result: manifest }),
      sourceCode: new VirtualFile({ value: sourceCode, path: 'dist/bundle.js' }),
      svgIcon: new VirtualFile({ value: new Uint8Array(files.svgIcon!.value as Uint8Array), path: 'images/icon.svg' }),
      auxiliaryFiles: [],
      localizationFiles: [],
    });
    expect(await getSnapChecksum(served(bundle) as never)).toBe(manifest.source.shasum);
    const altered = bundle.slice();
    const at = altered.length - 2;
    altered[at] = (altered[at] ?? 0) ^ 1;
    expect(await getSnapChecksum(served(altered) as never)).not.toBe(manifest.source.shasum);
    // the served bundle is this build's (the development key baked in), not the committed default build
    expect(files.sourceCode.toString()).toContain(devKey);
    expect(output).toContain('the development key in');
  });

  it('installed from that id, the snap reaches the gateway with the development key from its data directory', async () => {
    const snap = await installSnap(snapId as never);
    const call = async (method: string, params: Record<string, unknown> = {}) =>
      (
        (await snap.request({ origin: 'https://dapp.example', method, params: params as never })) as unknown as {
          response: unknown;
        }
      ).response;
    try {
      expect(await call('stk_getCurrentNetwork')).toEqual({
        result: { chainId: SN_SEPOLIA, name: 'Starknet Sepolia' },
      });
      // a read of the chain through nodegate: the snap first checks the node's chain id, then calls the token
      expect(await call('stk_getValue', { contractAddress: STRK, contractFuncName: 'decimals' })).toEqual({
        result: { result: ['0x12'] },
      });
    } finally {
      await snap.executionService.terminateAllSnaps().catch(() => {});
    }
  });

  it('lets only MetaMask (an extension) or its own page read the snap, and only as localhost', async () => {
    const page = await get('/dist/bundle.js', { host: `localhost:${port}`, origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    const rebound = await get('/dist/bundle.js', { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    const extension = await get('/snap.manifest.json', {
      host: `localhost:${port}`,
      origin: 'moz-extension://abc-123',
    });
    expect(extension.status).toBe(200);
    expect(extension.headers['access-control-allow-origin']).toBe('moz-extension://abc-123');
    const missing = await get('/../../package.json', { host: `localhost:${port}` });
    expect(missing.status).toBe(404);
    const installPage = await get('/', { host: `localhost:${port}` });
    expect(installPage.status).toBe(200);
  });

  it("get-starknet's default snap id is the one npm run snap serves", async () => {
    const printed = await run('npm', ['run', '--silent', 'snap', '--', '--print-id'], { cwd: REPO });
    expect(printed.stdout.trim()).toBe(DEFAULT_SNAP_ID);
    // and the id a served snap announces has the same form, on its own port
    expect(snapId).toBe(DEFAULT_SNAP_ID.replace(':8080', `:${port}`));
  });
});
