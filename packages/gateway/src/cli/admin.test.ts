import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SpawnedGateway, spawnGateway } from '../test-support/spawnGateway.js';

// `nodegate admin sign-in-link` and `nodegate admin set-password` as users run them (the bin npm
// links), offline over the database and through a running gateway's admin API.
const BIN = new URL('../../bin/nodegate.mjs', import.meta.url).pathname;
let dir: string;
let dataDir: string;
let gw: SpawnedGateway | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-admincli-'));
  dataDir = join(dir, 'data');
});
afterAll(async () => {
  await gw?.stop();
  await rm(dir, { recursive: true, force: true });
});

function nodegate(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
    else child.stdin!.end();
  });
}

/** The command in a terminal of its own (util-linux `script`): answers each prompt as it shows, returns what the terminal showed. */
function inTerminal(args: string[], answers: string[]): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let asked = 0;
  const onOutput = (c: Buffer) => {
    screen += c.toString();
    const prompts = (screen.match(/New password for operator@localhost: |Type it again: /g) ?? []).length;
    while (asked < prompts && asked < answers.length) child.stdin!.write(`${answers[asked++]}\r`);
  };
  child.stdout!.on('data', onOutput);
  child.stderr!.on('data', onOutput);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      child.stdin!.end();
      resolve({ code, screen });
    }),
  );
}

const networks = [
  { name: 'eth', family: 'eth', pathPrefix: '/eth', upstreams: [{ name: 'none', http: 'http://127.0.0.1:9' }] },
];

async function signIn(body: Record<string, string>): Promise<{ status: number; cookie: string }> {
  const base = gw!.ready.admin.url;
  const res = await fetch(`${base}/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]! };
}
const asOperator = (password: string) => signIn({ email: 'operator@localhost', password });
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

describe('nodegate admin', () => {
  it('sign-in-link: offline it names the listen address and works once the gateway runs; running, the gateway’s address; once each', async () => {
    const offline = await nodegate(['admin', 'sign-in-link', '--data-dir', dataDir]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toMatch(/^http:\/\/127\.0\.0\.1:8550\/dashboard\/sign-in\?token=[\w-]{43}\n$/);
    expect(offline.stderr).toMatch(/one-time link for operator@localhost: it signs in once, until \d\d:\d\d/);

    gw = await spawnGateway({ dataDir, networks });
    const base = gw.ready.admin.url.replace(/\/admin\/api\/v1$/, '');
    // the offline link is in the database the gateway now serves
    expect((await signIn({ signInToken: tokenOf(offline.stdout.trim()) })).status).toBe(200);

    const running = await nodegate(['admin', 'sign-in-link', '--data-dir', dataDir, '--json']);
    expect(running.code, running.stderr).toBe(0);
    const link = JSON.parse(running.stdout) as { url: string; expiresAt: string };
    expect(link.url.startsWith(`${base}/dashboard/sign-in?token=`)).toBe(true);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    const first = await signIn({ signInToken: tokenOf(link.url) });
    expect(first.status).toBe(200);
    expect((await signIn({ signInToken: tokenOf(link.url) })).status).toBe(401);
    // nothing secret in the gateway's own output
    expect(gw.output()).not.toContain(tokenOf(link.url));
  });

  it('set-password from stdin: the operator signs in with it, every operator session is signed out; a short one changes nothing', async () => {
    const link = (await nodegate(['admin', 'sign-in-link', '--data-dir', dataDir])).stdout.trim();
    const session = await signIn({ signInToken: tokenOf(link) });
    expect(session.status).toBe(200);
    const me = () =>
      fetch(`${gw!.ready.admin.url}/sessions/current`, { headers: { cookie: session.cookie } }).then((r) => r.status);
    expect(await me()).toBe(200);

    const set = await nodegate(['admin', 'set-password', '--data-dir', dataDir], 'piped password 123\n');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/password set for operator@localhost \(\d+ dashboard sessions? signed out\)/);
    expect(set.stdout + set.stderr).not.toContain('piped password 123');
    expect(await me()).toBe(401);
    expect((await asOperator('piped password 123')).status).toBe(200);

    const short = await nodegate(['admin', 'set-password', '--data-dir', dataDir], 'short\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 10 characters');
    expect((await asOperator('piped password 123')).status).toBe(200);
  });

  it('set-password --password-file: its first line; the old password stops working', async () => {
    const file = join(dir, 'pw.txt');
    await writeFile(file, 'file password 1234\nsecond line ignored\n', { mode: 0o600 });
    const set = await nodegate(['admin', 'set-password', '--data-dir', dataDir, '--password-file', file]);
    expect(set.code, set.stderr).toBe(0);
    expect((await asOperator('file password 1234')).status).toBe(200);
    expect((await asOperator('piped password 123')).status).toBe(401);
    const missing = await nodegate(['admin', 'set-password', '--data-dir', dataDir, '--password-file', `${file}.x`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--password-file: cannot read');
  });

  it('set-password on a terminal: asked twice without echo (the screen never shows it); two different ones change nothing', async () => {
    const typed = 'typed password 1234';
    const ok = await inTerminal(['admin', 'set-password', '--data-dir', dataDir], [typed, typed]);
    expect(ok.code, ok.screen).toBe(0);
    expect(ok.screen).toContain('New password for operator@localhost: ');
    expect(ok.screen).toContain('Type it again: ');
    expect(ok.screen).toContain('password set for operator@localhost');
    expect(ok.screen).not.toContain(typed);
    expect((await asOperator(typed)).status).toBe(200);

    const differ = await inTerminal(
      ['admin', 'set-password', '--data-dir', dataDir],
      ['another one 12345', 'another one 12346'],
    );
    expect(differ.code).toBe(2);
    expect(differ.screen).toContain('the two passwords differ');
    expect(differ.screen).not.toContain('another one');
    expect((await asOperator(typed)).status).toBe(200);
  });
});
