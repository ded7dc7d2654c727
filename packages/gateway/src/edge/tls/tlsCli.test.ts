import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../../embedded/startAnvil.js';
import { until } from '../../test-support/until.js';
import { createTestCertificates, type TestCertificates, type TestServerCertificate } from './createTestCertificates.js';

// `nodegate start` with TLS as users run it (the built CLI in a process of its own): the flags,
// the printed URLs and the ready file, the CLI's own calls to the running gateway, SIGHUP
// rotation under an open WebSocket, and the config errors of a bad certificate at start.

const CLI = new URL('../../../dist/cli/main.js', import.meta.url).pathname;
const run = promisify(execFile);

let pki: TestCertificates;
let first: TestServerCertificate;
let second: TestServerCertificate;
let anvil: EmbeddedProcess;
let dir: string;

/** The CLI with `args`; its exit code, stdout and stderr. */
async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The serial number of the certificate a new TLS connection to `url` is served. */
function servedSerial(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ca: pki.ca, servername: 'localhost' }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      socket.end();
      resolve(serial);
    });
    socket.once('error', reject);
  });
}

/** A config file in `dir` for a gateway in front of the test's anvil. */
async function configFile(name: string, extra: Record<string, unknown> = {}): Promise<string> {
  const file = join(dir, name);
  await writeFile(
    file,
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'data'),
      devKey: true,
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          dev: true,
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http, ws: anvil.ws }],
        },
      ],
      ...extra,
    }),
  );
  return file;
}

beforeAll(async () => {
  pki = await createTestCertificates();
  first = await pki.issue('first', '1001');
  second = await pki.issue('second', '1002');
  anvil = await startAnvil();
  dir = await mkdtemp(join(tmpdir(), 'nodegate-tls-cli-'));
});

afterAll(async () => {
  await anvil?.stop();
  await rm(dir, { recursive: true, force: true });
  await pki?.remove();
});

describe('nodegate start --tls-cert --tls-key', () => {
  let child: ChildProcess;
  let stdout = '';
  let stderr = '';
  let ready: any;
  const certFile = () => join(dir, 'served.pem');
  const keyFile = () => join(dir, 'served.key');

  beforeAll(async () => {
    await copyFile(first.certFile, certFile());
    await copyFile(first.keyFile, keyFile());
    const config = await configFile('plain.json');
    const readyFile = join(dir, 'ready.json');
    child = spawn(
      process.execPath,
      [CLI, 'start', '--config', config, '--tls-cert', certFile(), '--tls-key', keyFile(), '--ready-file', readyFile],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout!.on('data', (c) => {
      stdout += c;
    });
    child.stderr!.on('data', (c) => {
      stderr += c;
    });
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}: ${stderr}`);
        return existsSync(readyFile);
      },
      'the ready file',
      { tries: 600 },
    );
    ready = JSON.parse(await readFile(readyFile, 'utf8'));
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('prints and writes https:// and wss:// URLs, and says what certificate it serves', () => {
    expect(ready.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.networks['eth-devnet'].http).toBe(`${ready.url}/eth-devnet`);
    expect(ready.networks['eth-devnet'].ws).toBe(`${ready.url.replace('https://', 'wss://')}/eth-devnet`);
    expect(ready.admin.url).toBe(`${ready.url}/admin/api/v1`);
    expect(ready.dashboard.url).toBe(`${ready.url}/dashboard`);
    expect(stdout).toContain(`listening on ${ready.url}`);
    expect(stdout).toContain(`HTTPS      ${ready.url}/eth-devnet/v3/<API_KEY>`);
    expect(stdout).toContain(`WebSocket  ${ready.url.replace('https://', 'wss://')}/eth-devnet/ws/v3/<API_KEY>`);
    expect(stdout).toMatch(
      /tls: CN=localhost \(DNS:localhost, IP Address:127\.0\.0\.1\), serial 1001, SHA-256 [0-9A-F:]{95}/,
    );
    // the command it suggests works as printed: curl is told to trust the served certificate
    expect(stdout).toContain(`try: curl -s --cacert ${certFile()} -H 'Content-Type: application/json'`);
  });

  it('nodegate keys reaches the running gateway over TLS (the certificate it recorded in admin.json)', async () => {
    const saved = JSON.parse(await readFile(join(dir, 'data', 'admin.json'), 'utf8'));
    expect(saved).toEqual({
      url: ready.url,
      tls: { cert: first.cert.endsWith('\n') ? first.cert : `${first.cert}\n` },
    });
    const created = await cli(['keys', 'create', '--data-dir', join(dir, 'data'), '--name', 'over-tls', '--json']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout).key as string;
    // served by the running gateway (its usage and changes are live): the key answers at once
    const res = await fetchJson(`${ready.networks['eth-devnet'].http}/v3/${key}`, 'eth_chainId');
    expect(res.result).toBe('0x7a69');
  });

  it('SIGHUP: new connections get the new certificate, an open WebSocket keeps working, a bad one is refused', async () => {
    const ws = new WebSocket(`${ready.networks['eth-devnet'].ws}/ws/v3/${ready.devKey.key}`, { ca: pki.ca });
    let openSerial = '';
    ws.once('upgrade', (res) => {
      openSerial = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().serialNumber;
    });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const call = (id: number) =>
      new Promise<any>((resolve) => {
        ws.once('message', (d) => resolve(JSON.parse(String(d))));
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] }));
      });
    try {
      expect(openSerial).toBe('1001');
      expect((await call(1)).result).toBe('0x7a69');

      await copyFile(second.certFile, certFile());
      await copyFile(second.keyFile, keyFile());
      child.kill('SIGHUP');
      await until(async () => (await servedSerial(ready.url)) === '1002', 'the new certificate on new connections');
      await until(async () => stdout.includes('SIGHUP: TLS certificate reloaded: CN=localhost'), 'the reload line');
      expect(stdout).toMatch(/SIGHUP: TLS certificate reloaded: .*serial 1002/);
      expect(child.exitCode).toBeNull();
      expect(ws.readyState).toBe(WebSocket.OPEN);
      expect((await call(2)).result).toBe('0x7a69');
      const fresh = new WebSocket(`${ready.networks['eth-devnet'].ws}/ws/v3/${ready.devKey.key}`, { ca: pki.ca });
      const freshSerial = await new Promise<string>((resolve, reject) => {
        fresh.once('upgrade', (res) =>
          resolve((res.socket as import('node:tls').TLSSocket).getPeerCertificate().serialNumber),
        );
        fresh.once('error', reject);
      });
      expect(freshSerial).toBe('1002');
      fresh.close();
      // the CLI follows the rotation (admin.json holds the new certificate)
      const listed = await cli(['keys', 'list', '--data-dir', join(dir, 'data'), '--json']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout).map((k: { name: string }) => k.name)).toContain('over-tls');

      // a broken certificate file: refused, logged, the previous certificate still served
      await writeFile(certFile(), '-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n');
      child.kill('SIGHUP');
      await until(async () => stdout.includes('SIGHUP: TLS reload refused'), 'the refusal line');
      expect(stdout).toMatch(/SIGHUP: TLS reload refused \(tls\.certFile: .*\); still serving .*serial 1002/);
      expect(stderr).toContain('TLS reload refused; the previous certificate is still served');
      expect(await servedSerial(ready.url)).toBe('1002');
      expect(child.exitCode).toBeNull();
      expect((await call(3)).result).toBe('0x7a69');
    } finally {
      ws.close();
    }
  });
});

describe('a bad certificate at start', () => {
  it('fails the start with a config error naming tls.certFile (and nothing listens)', async () => {
    const junk = join(dir, 'junk.pem');
    await writeFile(junk, 'this is not a certificate\n');
    const config = await configFile('bad-tls.json', {
      dataDir: join(dir, 'bad-data'),
      tls: { certFile: junk, keyFile: first.keyFile },
    });
    const started = await cli(['start', '--config', config]);
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(`config error: tls.certFile: ${junk} holds no PEM certificate`);
    expect(started.stdout).not.toContain('listening on');
    const checked = await cli(['config', 'check', config]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain('config error: tls.certFile:');
  });

  it('the flags are named when they are at fault; a key that is not the certificate’s names the key', async () => {
    const config = await configFile('plain-bad.json', { dataDir: join(dir, 'bad-data-2') });
    const missing = join(dir, 'missing.pem');
    const noCert = await cli(['start', '--config', config, '--tls-cert', missing, '--tls-key', first.keyFile]);
    expect(noCert.code).toBe(1);
    expect(noCert.stderr).toContain(`config error: --tls-cert: cannot read ${missing}: no such file`);
    const alone = await cli(['start', '--config', config, '--tls-cert', first.certFile]);
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain('config error: --tls-key: give the key with the certificate (--tls-cert)');
    const mismatched = await configFile('mismatch.json', {
      dataDir: join(dir, 'bad-data-3'),
      tls: { certFile: first.certFile, keyFile: second.keyFile },
    });
    const wrongKey = await cli(['start', '--config', mismatched]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain(`config error: tls.keyFile: ${second.keyFile} is not the key of the certificate`);
  });
});

async function fetchJson(url: string, method: string): Promise<any> {
  const { Agent, fetch } = await import('undici');
  const agent = new Agent({ connect: { ca: pki.ca } });
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      dispatcher: agent,
    });
    return await res.json();
  } finally {
    await agent.close();
  }
}
