import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayTestbed, startGatewayTestbed } from '../startGatewayTestbed.js';
import { runGateways } from './runGateways.js';

// `nodegate gateways …` against a running gateway (its admin URL and token), and offline over a
// data directory's database (the admin API served in-process, as `nodegate keys` is).

let tb: GatewayTestbed;
let token: string;

beforeAll(async () => {
  tb = await startGatewayTestbed();
  token = (await readFile(join(tb.t.dataDir, 'admin-token'), 'utf8')).trim();
}, 120_000);

afterAll(async () => {
  await tb?.stop();
});

async function cli(sub: string, args: string[], flags: Record<string, unknown> = {}) {
  const lines: string[] = [];
  const code = await runGateways(sub, args, { adminUrl: tb.url, adminToken: token, ...flags }, (l) => lines.push(l));
  return { code, text: lines.join('\n') };
}

describe('nodegate gateways', () => {
  it('creates, lists, shows, changes, tokens and deletes a gateway; the token serves what the gateway restricts', async () => {
    const created = await cli('create', ['cli-gw'], { allowedOrigins: 'https://app.example.com' });
    expect(created.code).toBe(0);
    expect(created.text).toContain('gateway:          cli-gw');
    expect(created.text).toContain(`path form:        ${tb.url}/ipfs-gateway/cli-gw/ipfs/<cid>`);
    expect(created.text).toContain(`host form:        http://cli-gw.ipfs.localhost:${tb.port}/ipfs/<cid>`);
    expect(created.text).toContain('mode:             restricted');
    expect((await cli('list', [])).text).toMatch(/cli-gw\s+restricted/);

    const set = await cli('set', ['cli-gw'], { mode: 'open', allowedOrigins: '' });
    expect(set.text).toContain('mode:             open');
    expect(set.text).toContain('allowed origins:  (none)');
    await cli('set', ['cli-gw'], { mode: 'restricted' });

    const added = JSON.parse((await cli('add-token', ['cli-gw'], { name: 'ci', json: true })).text) as {
      id: string;
      token: string;
    };
    const { cid } = await tb.kubo.add('only through a token', { cidVersion: 1, pin: false });
    expect((await tb.get(`/ipfs-gateway/cli-gw/ipfs/${cid}`)).status).toBe(403);
    expect((await tb.get(`/ipfs-gateway/cli-gw/ipfs/${cid}?token=${added.token}`)).status).toBe(200);
    expect((await cli('tokens', ['cli-gw'])).text).toContain(`${added.id}`);
    expect((await cli('tokens', ['cli-gw'])).text).not.toContain(added.token);
    expect((await cli('revoke-token', ['cli-gw', added.id])).code).toBe(0);
    expect((await tb.get(`/ipfs-gateway/cli-gw/ipfs/${cid}?token=${added.token}`)).status).toBe(401);

    const shown = JSON.parse((await cli('show', ['cli-gw'], { json: true })).text) as { id: string };
    expect((await cli('delete', [shown.id])).text).toBe('deleted cli-gw');
    expect((await tb.get(`/ipfs-gateway/cli-gw/ipfs/${cid}?token=${added.token}`)).status).toBe(404);
    await expect(cli('show', ['cli-gw'])).rejects.toThrow('no gateway named "cli-gw"');
  });

  it('refuses a mode other than restricted or open before sending anything', async () => {
    await expect(cli('create', ['x-gw'], { mode: 'public' })).rejects.toThrow('--mode must be restricted or open');
    await expect(cli('nope', [])).rejects.toThrow('usage: nodegate gateways');
  });

  it('works offline over a data directory (no gateway running), over its database', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-gw-cli-'));
    try {
      const lines: string[] = [];
      expect(await runGateways('create', ['offline-gw'], { dataDir, json: true }, (l) => lines.push(l))).toBe(0);
      expect(JSON.parse(lines[0]!)).toMatchObject({ name: 'offline-gw', mode: 'restricted' });
      const listed: string[] = [];
      await runGateways('list', [], { dataDir }, (l) => listed.push(l));
      expect(listed.join('\n')).toContain('offline-gw');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
