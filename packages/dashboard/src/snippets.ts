import type { DashboardConfig, KeySettings } from './types.js';

export interface Endpoint {
  network: string;
  family: string;
  https: string;
  wss: string;
}

/** Every network's endpoints for one key. */
export function endpointsOf(config: DashboardConfig, key: string): Endpoint[] {
  return Object.entries(config.networks).map(([network, n]) => ({
    network,
    family: n.family,
    https: `${n.http}/v3/${key}`,
    wss: `${n.ws}/ws/v3/${key}`,
  }));
}

/** The shell variable the snippets read the key's secret from (the secret is shown once, at creation). */
export const SECRET_VAR = 'API_KEY_SECRET';
/** The shell variable the snippets read a JWT from (signed with one of the key's JWT public keys). */
export const JWT_VAR = 'API_KEY_JWT';

/** Ready-to-run client code for one key, and one line per key setting that shaped it. */
export interface Snippet {
  id: string;
  label: string;
  code: string;
  /** Why the code is as it is: one line per setting that affects it (empty when none does). */
  notes: string[];
}

/** What the key's settings ask of every request, as the snippets send it. */
interface Needs {
  origin: string | undefined;
  userAgent: string | undefined;
  secret: boolean;
  jwt: boolean;
  /** Methods the key may call (empty: every one). */
  methods: readonly string[];
}

/** A single-quoted shell word. */
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** A single-quoted JavaScript string. */
const js = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * An Origin a client can send that the allowlist entry admits: the entry itself when it is an
 * origin; a bare host gets https (http for localhost); `*.example.com` becomes `app.example.com`.
 *
 * @example
 * exampleOrigin('*.example.com')  // 'https://app.example.com'
 * exampleOrigin('localhost:5173') // 'http://localhost:5173'
 */
export function exampleOrigin(entry: string): string {
  const text = entry.endsWith('/') ? entry.slice(0, -1) : entry;
  const m = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(text);
  const scheme = m?.[1]?.toLowerCase();
  let hostPort = m ? (m[2] ?? '') : text;
  if (hostPort.startsWith('*.')) hostPort = `app.${hostPort.slice(2)}`;
  const host = hostPort.replace(/:\d+$/, '');
  const local = /^(?:localhost|127\.0\.0\.1)$/i.test(host);
  return `${scheme ?? (local ? 'http' : 'https')}://${hostPort}`;
}

/** The first method of `preferred` the key may call (the first of them when none is allowed). */
const pick = (needs: Needs, preferred: readonly string[]) =>
  preferred.find((m) => needs.methods.length === 0 || needs.methods.includes(m));

function needsOf(settings: KeySettings): Needs {
  const origin = settings.allowedOrigins[0];
  return {
    origin: origin === undefined ? undefined : exampleOrigin(origin),
    userAgent: settings.allowedUserAgents[0],
    secret: settings.requireSecret,
    jwt: settings.requireJwt,
    methods: settings.allowedMethods,
  };
}

/** The notes every JSON-RPC snippet shares. */
function rpcNotes(needs: Needs, settings: KeySettings): string[] {
  const notes: string[] = [];
  if (needs.secret && needs.jwt) {
    notes.push(
      'This key requires both its secret and a JWT, but a JSON-RPC request carries one Authorization header: ' +
        'the gateway refuses every JSON-RPC request of this key (401). Turn one of them off (IPFS takes both).',
    );
  } else if (needs.secret) {
    notes.push(
      `Require secret is on: the secret goes as the HTTP basic auth password (empty user). Set ${SECRET_VAR} to the ` +
        'secret shown once when the key was created.',
    );
  } else if (needs.jwt) {
    notes.push(
      `Require JWT is on: set ${JWT_VAR} to a token signed with one of this key's JWT keys (RS256/ES256, aud = the key, with exp), sent as Authorization: Bearer.`,
    );
  }
  if (needs.origin !== undefined) {
    notes.push(
      `An origin allowlist is set: a request without an allowed Origin is refused (403), so this sends Origin: ${needs.origin}` +
        `${settings.allowedOrigins[0]?.includes('*') ? ` (${settings.allowedOrigins[0]} admits any subdomain)` : ''}. ` +
        "A browser sends its page's origin itself.",
    );
  }
  if (needs.userAgent !== undefined) {
    notes.push(
      `A user-agent allowlist is set: the User-Agent must contain one of its entries, so this sends ${needs.userAgent}.`,
    );
  }
  return notes;
}

/** The Authorization header value a JSON-RPC request needs, as JavaScript (undefined: none). */
const rpcAuthJs = (needs: Needs) =>
  needs.secret
    ? `'Basic ' + btoa(':' + process.env.${SECRET_VAR})`
    : needs.jwt
      ? `'Bearer ' + process.env.${JWT_VAR}`
      : undefined;

/** The headers object a JavaScript snippet sends (undefined: none needed). */
function headersJs(needs: Needs, auth: string | undefined, indent: string): string | undefined {
  const lines: string[] = [];
  if (auth !== undefined) lines.push(`authorization: ${auth},`);
  if (needs.origin !== undefined) lines.push(`origin: ${js(needs.origin)},`);
  if (needs.userAgent !== undefined) lines.push(`'user-agent': ${js(needs.userAgent)},`);
  if (lines.length === 0) return undefined;
  return `{\n${lines.map((l) => `${indent}  ${l}`).join('\n')}\n${indent}}`;
}

/**
 * Ready-to-run client code for one key, as its current settings require: the Origin an origin
 * allowlist needs, the User-Agent a user-agent allowlist needs, the secret (`--user :$API_KEY_SECRET`)
 * or a JWT (`Authorization: Bearer $API_KEY_JWT`) when required, a method the method allowlist
 * admits; each with one line per setting that shaped it. Secrets stay placeholders (environment
 * variables): they are never shown again.
 *
 * @example
 * snippetsOf(config, key, { ...settings, allowedOrigins: ['https://app.example.com'] })[0].code
 * // curl http://127.0.0.1:8545/eth-devnet/v3/KEY \
 * //   -H 'Origin: https://app.example.com' \ …
 */
export function snippetsOf(config: DashboardConfig, key: string, settings: KeySettings): Snippet[] {
  const endpoints = endpointsOf(config, key);
  const eth = endpoints.find((e) => e.family === 'eth') ?? endpoints[0];
  const stark = endpoints.find((e) => e.family === 'starknet');
  const needs = needsOf(settings);
  const notes = rpcNotes(needs, settings);
  const out: Snippet[] = [];
  if (eth) {
    const preferred = ['eth_blockNumber', 'eth_chainId', 'net_version', 'web3_clientVersion', 'eth_gasPrice'];
    const method = pick(needs, preferred);
    const ethNotes = [...notes];
    if (method === undefined) {
      ethNotes.push(
        `The method allowlist admits none of ${preferred.join(', ')}: this call is refused (403). Call a method the list names.`,
      );
    } else if (method !== 'eth_blockNumber') {
      ethNotes.push(`The method allowlist does not admit eth_blockNumber: this calls ${method}.`);
    }
    const called = method ?? 'eth_blockNumber';
    const curl = [`curl ${eth.https} \\`];
    if (needs.secret) curl.push(`  --user ":$${SECRET_VAR}" \\`);
    else if (needs.jwt) curl.push(`  -H "Authorization: Bearer $${JWT_VAR}" \\`);
    if (needs.origin !== undefined) curl.push(`  -H ${sh(`Origin: ${needs.origin}`)} \\`);
    if (needs.userAgent !== undefined) curl.push(`  -A ${sh(needs.userAgent)} \\`);
    curl.push(`  -H 'content-type: application/json' \\`);
    curl.push(`  --data '{"jsonrpc":"2.0","id":1,"method":"${called}","params":[]}'`);
    out.push({ id: 'curl', label: 'curl', code: curl.join('\n'), notes: ethNotes });

    const headers = headersJs(needs, rpcAuthJs(needs), '  ');
    out.push({
      id: 'viem',
      label: 'viem',
      code: [
        `import { createPublicClient, http } from 'viem';`,
        '',
        `const client = createPublicClient({`,
        headers === undefined
          ? `  transport: http('${eth.https}'),`
          : `  transport: http('${eth.https}', {\n    fetchOptions: { headers: ${headersJs(needs, rpcAuthJs(needs), '    ')} },\n  }),`,
        `});`,
        called === 'eth_blockNumber'
          ? `console.log(await client.getBlockNumber());`
          : `console.log(await client.request({ method: '${called}', params: [] }));`,
      ].join('\n'),
      notes: ethNotes,
    });
  }
  if (stark) {
    const preferred = ['starknet_blockNumber', 'starknet_chainId'];
    const method = pick(needs, preferred);
    const starkNotes = [...notes];
    if (method === undefined) {
      starkNotes.push(
        `The method allowlist admits none of ${preferred.join(', ')}: this call is refused (403). Call a method the list names.`,
      );
    } else if (method !== 'starknet_blockNumber') {
      starkNotes.push(`The method allowlist does not admit starknet_blockNumber: this calls ${method}.`);
    }
    const headers = headersJs(needs, rpcAuthJs(needs), '  ');
    out.push({
      id: 'starknet',
      label: 'starknet.js',
      code: [
        `import { RpcProvider } from 'starknet';`,
        '',
        headers === undefined
          ? `const provider = new RpcProvider({ nodeUrl: '${stark.https}' });`
          : `const provider = new RpcProvider({\n  nodeUrl: '${stark.https}',\n  headers: ${headers},\n});`,
        method === 'starknet_chainId'
          ? `console.log(await provider.getChainId());`
          : `console.log(await provider.getBlockNumber());`,
      ].join('\n'),
      notes: starkNotes,
    });
  }
  if (config.ipfs) {
    const method = pick(needs, ['add', 'version']);
    const kuboNotes: string[] = [
      `IPFS always takes the key and its secret (HTTP basic auth): set ${SECRET_VAR} to the secret shown once when the key was created.`,
    ];
    if (needs.jwt) {
      kuboNotes.push(
        `Require JWT is on: set ${JWT_VAR} to a token signed with one of this key's JWT keys, sent as X-Nodegate-JWT beside the basic auth.`,
      );
    }
    kuboNotes.push(...notes.filter((n) => n.startsWith('An origin') || n.startsWith('A user-agent')));
    if (method === undefined) {
      kuboNotes.push('The method allowlist admits neither add nor version: this command is refused (403).');
    } else if (method !== 'add') {
      kuboNotes.push('The method allowlist does not admit add: this calls version.');
    }
    const lines = [`authorization: 'Basic ' + btoa('${key}:' + process.env.${SECRET_VAR}),`];
    if (needs.jwt) lines.push(`'x-nodegate-jwt': process.env.${JWT_VAR},`);
    if (needs.origin !== undefined) lines.push(`origin: ${js(needs.origin)},`);
    if (needs.userAgent !== undefined) lines.push(`'user-agent': ${js(needs.userAgent)},`);
    out.push({
      id: 'kubo',
      label: 'kubo-rpc-client',
      code: [
        `import { create } from 'kubo-rpc-client';`,
        '',
        `const ipfs = create({`,
        `  url: '${config.ipfs}/api/v0',`,
        `  headers: {`,
        ...lines.map((l) => `    ${l}`),
        `  },`,
        `});`,
        ...(method === 'version'
          ? [`console.log((await ipfs.version()).version);`]
          : [`const { cid } = await ipfs.add('hello nodegate');`, `console.log(cid.toString());`]),
      ].join('\n'),
      notes: kuboNotes,
    });
  }
  return out;
}
