import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exampleOrigin, JWT_VAR, SECRET_VAR, snippetsOf } from '../src/snippets.js';
import type { DashboardConfig, KeySettings } from '../src/types.js';

// The key page's quick-start snippets, as a key's settings shape them (the e2e test runs them
// against a real gateway; these check each setting's effect and the shell quoting).

const KEY = '0123456789abcdef0123456789abcdef';
const config: DashboardConfig = {
  networks: {
    'eth-devnet': { family: 'eth', http: 'http://127.0.0.1:8545/eth-devnet', ws: 'ws://127.0.0.1:8545/eth-devnet' },
    'starknet-devnet': {
      family: 'starknet',
      http: 'http://127.0.0.1:8545/starknet-devnet',
      ws: 'ws://127.0.0.1:8545/starknet-devnet',
    },
  },
  ipfs: 'http://127.0.0.1:8545/ipfs',
  adminUrl: 'http://127.0.0.1:8545/admin/api/v1',
};
const OPEN: KeySettings = {
  allowedOrigins: [],
  allowedUserAgents: [],
  allowedContracts: [],
  allowedMethods: [],
  requireSecret: false,
  jwtKeys: [],
  requireJwt: false,
  creditsPerSecond: null,
  creditsPerDay: null,
};
const snippet = (settings: Partial<KeySettings>, id: string) => {
  const s = snippetsOf(config, KEY, { ...OPEN, ...settings }).find((x) => x.id === id);
  if (!s) throw new Error(`no ${id} snippet`);
  return s;
};

/** The arguments bash gives curl when it runs the snippet (curl replaced by a function that prints them). */
function curlArgs(code: string, env: Record<string, string> = {}): string[] {
  const r = spawnSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${code}`], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

describe('exampleOrigin', () => {
  it('gives an Origin the allowlist entry admits', () => {
    expect(exampleOrigin('https://app.example.com')).toBe('https://app.example.com');
    expect(exampleOrigin('http://app.example.com:8080')).toBe('http://app.example.com:8080');
    expect(exampleOrigin('app.example.com')).toBe('https://app.example.com');
    expect(exampleOrigin('*.example.com')).toBe('https://app.example.com');
    expect(exampleOrigin('https://*.example.com')).toBe('https://app.example.com');
    expect(exampleOrigin('localhost:5173')).toBe('http://localhost:5173');
    expect(exampleOrigin('127.0.0.1')).toBe('http://127.0.0.1');
  });
});

describe('snippetsOf', () => {
  it('an open key: the plain call, no notes on the JSON-RPC snippets', () => {
    const curl = snippet({}, 'curl');
    expect(curl.notes).toEqual([]);
    expect(curlArgs(curl.code)).toEqual([
      `${config.networks['eth-devnet']!.http}/v3/${KEY}`,
      '-H',
      'content-type: application/json',
      '--data',
      '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
    ]);
    expect(snippet({}, 'viem').notes).toEqual([]);
    expect(snippet({}, 'viem').code).not.toContain('fetchOptions');
    expect(snippet({}, 'starknet').code).not.toContain('headers');
  });

  it('an origin allowlist and a required secret: the Origin header and --user :$API_KEY_SECRET, each said why', () => {
    const settings = { allowedOrigins: ['*.example.com'], requireSecret: true };
    const curl = snippet(settings, 'curl');
    const args = curlArgs(curl.code, { [SECRET_VAR]: 's3cret' });
    expect(args).toContain('Origin: https://app.example.com');
    expect(args[args.indexOf('--user') + 1]).toBe(':s3cret');
    expect(curl.notes).toHaveLength(2);
    expect(curl.notes[0]).toMatch(/Require secret is on.*API_KEY_SECRET/);
    expect(curl.notes[1]).toMatch(/origin allowlist.*Origin: https:\/\/app\.example\.com.*any subdomain/);
    for (const id of ['viem', 'starknet', 'kubo']) {
      const s = snippet(settings, id);
      expect(s.code).toContain("origin: 'https://app.example.com'");
      expect(s.notes.some((n) => n.includes('origin allowlist'))).toBe(true);
    }
    expect(snippet(settings, 'viem').code).toContain(`btoa(':' + process.env.${SECRET_VAR})`);
    expect(snippet(settings, 'kubo').code).toContain(`btoa('${KEY}:' + process.env.${SECRET_VAR})`);
  });

  it('a required JWT: the Bearer header (x-nodegate-jwt for IPFS); with the secret too, says JSON-RPC cannot carry both', () => {
    const curl = snippet({ requireJwt: true }, 'curl');
    expect(curlArgs(curl.code, { [JWT_VAR]: 'eyJ.t.k' })).toContain('Authorization: Bearer eyJ.t.k');
    expect(curl.notes[0]).toMatch(/Require JWT is on/);
    expect(snippet({ requireJwt: true }, 'kubo').code).toContain(`'x-nodegate-jwt': process.env.${JWT_VAR}`);
    const both = snippet({ requireJwt: true, requireSecret: true }, 'curl');
    expect(both.notes[0]).toMatch(/both its secret and a JWT.*refuses every JSON-RPC request/);
  });

  it('a user-agent allowlist: the User-Agent sent, quoted for the shell whatever it holds', () => {
    const ua = `it's "my" backend $HOME \`id\``;
    const curl = snippet({ allowedUserAgents: [ua] }, 'curl');
    const args = curlArgs(curl.code);
    expect(args[args.indexOf('-A') + 1]).toBe(ua);
    expect(curl.notes[0]).toMatch(/user-agent allowlist/);
    // the JavaScript string holds it as it is
    const viem = snippet({ allowedUserAgents: [ua] }, 'viem').code;
    const literal = /'user-agent': ('(?:[^'\\]|\\.)*')/.exec(viem)![1]!;
    expect(new Function(`return ${literal}`)()).toBe(ua);
  });

  it('a method allowlist without eth_blockNumber: a method it admits, and why', () => {
    const curl = snippet({ allowedMethods: ['eth_chainId', 'starknet_chainId', 'version'] }, 'curl');
    expect(curlArgs(curl.code).at(-1)).toContain('"method":"eth_chainId"');
    expect(curl.notes).toEqual(['The method allowlist does not admit eth_blockNumber: this calls eth_chainId.']);
    expect(snippet({ allowedMethods: ['eth_chainId'] }, 'viem').code).toContain(
      "client.request({ method: 'eth_chainId', params: [] })",
    );
    expect(snippet({ allowedMethods: ['starknet_chainId'] }, 'starknet').code).toContain('provider.getChainId()');
    expect(snippet({ allowedMethods: ['version'] }, 'kubo').code).toContain('ipfs.version()');
    const none = snippet({ allowedMethods: ['eth_call'] }, 'curl');
    expect(none.notes[0]).toMatch(/admits none of .*refused \(403\)/);
  });
});
