#!/usr/bin/env node
// `npm run snap`: builds the nodegate Starknet snap for the local gateway (when its sources, settings or key changed)
// and serves it for MetaMask Flask as `local:http://localhost:8080`, the snap id @nodegate/get-starknet uses by
// default. The build bakes in the gateway's development key (read from <data-dir>/dev-key.json, which `npm start`
// writes) and goes to packages/starknet-snap/dist/serve, so the committed manifest (the default build) is untouched.
//
//   npm run snap [-- --port N] [--data-dir DIR | --key KEY] [--url BASE] [--out DIR] [--rebuild] [--print-id]
//
// Only loopback listens, and only MetaMask (a browser extension) or the install page served here may read the files:
// the bundle holds an API key, so another web page (or a DNS-rebound host name) gets 403.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SNAP = join(ROOT, 'packages', 'starknet-snap');
/** The port MetaMask's snap tooling serves on, and so the one in get-starknet's default snap id. */
const DEFAULT_PORT = 8080;
const KEY = /^[A-Za-z0-9_-]{8,128}$/;

const USAGE = `usage: npm run snap [-- OPTIONS]
  --port N          serve on localhost:N (default ${DEFAULT_PORT}; the snap id is local:http://localhost:N)
  --data-dir DIR    the gateway's data directory, whose dev-key.json gives the API key (default .nodegate)
  --key KEY         the API key to build in instead (a key of your gateway, e.g. from nodegate keys create)
  --url BASE        the test network's nodegate base URL (default: the default gateway's, http://127.0.0.1:8550/starknet-devnet)
  --out DIR         build into DIR (default packages/starknet-snap/dist/serve)
  --rebuild         build even when nothing changed
  --print-id        print the snap id and exit`;

function fail(message) {
  process.stderr.write(`npm run snap: ${message}\n`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      key: { type: 'string' },
      url: { type: 'string' },
      out: { type: 'string' },
      rebuild: { type: 'boolean' },
      'print-id': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (e) {
  fail(`${e.message}\n${USAGE}`);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const port = args.port === undefined ? DEFAULT_PORT : Number(args.port);
if (!/^\d{1,5}$/.test(args.port ?? '0') || port > 65535) fail(`--port must be a port number, got ${args.port}`);
if (args['print-id']) {
  if (port === 0) fail('--print-id needs a fixed --port (port 0 picks a free one when serving)');
  process.stdout.write(`${snapIdOf(port)}\n`);
  process.exit(0);
}

/** The snap id MetaMask installs a snap served on `port` by. */
function snapIdOf(p) {
  return `local:http://localhost:${p}`;
}

const OUT = resolve(args.out ?? join(SNAP, 'dist', 'serve'));

// --- which key and URL the build bakes in -------------------------------------------------------------------------
let key = args.key;
let keySource = '--key';
if (key === undefined) {
  const dataDir = resolve(args['data-dir'] ?? join(ROOT, '.nodegate'));
  const file = join(dataDir, 'dev-key.json');
  if (!existsSync(file)) {
    fail(
      `no development key in ${file}: start the gateway once (npm start) so that it creates one, ` +
        'or pass --key KEY (a key of your gateway) or --data-dir DIR (the data directory your gateway runs with)',
    );
  }
  try {
    key = JSON.parse(readFileSync(file, 'utf8')).key;
  } catch (e) {
    fail(`cannot read the development key from ${file}: ${e.message}`);
  }
  keySource = `the development key in ${relative(process.cwd(), file) || file}`;
}
if (typeof key !== 'string' || !KEY.test(key)) fail('the API key must be 8-128 letters, digits, "_" or "-"');
if (args.url !== undefined) {
  let u;
  try {
    u = new URL(args.url);
  } catch {
    fail(`--url must be an http(s) URL, got ${args.url}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') fail(`--url must be an http(s) URL, got ${args.url}`);
}

// --- build when needed ----------------------------------------------------------------------------------------------
const env = {
  ...process.env,
  SNAP_OUT_DIR: OUT,
  SNAP_SEPOLIA_API_KEY: key,
  ...(args.url === undefined ? {} : { SNAP_SEPOLIA_URL: args.url }),
  // mm-snap's `#!/usr/bin/env node` runs on this (the project's) Node
  PATH: `${dirname(process.execPath)}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
};

/** Every file under `path` (a file or a folder), sorted. */
function filesOf(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((f) => filesOf(join(path, f)));
}

/** A digest of what the bundle is made of: the snap's sources, the shared package it bundles, settings and key. */
function buildInputs() {
  const h = createHash('sha256');
  const inputs = [
    ...filesOf(join(SNAP, 'src')),
    ...['snap.config.ts', 'package.json', 'snap.manifest.json', join('images', 'icon.svg')].map((f) => join(SNAP, f)),
    ...filesOf(join(ROOT, 'packages', 'starknet-spec', 'dist')),
    join(ROOT, 'package-lock.json'),
  ];
  for (const file of inputs) {
    if (!existsSync(file)) continue;
    h.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  for (const name of Object.keys(env)
    .filter((k) => k.startsWith('SNAP_'))
    .sort()) {
    h.update(`${name}=${env[name]}\0`);
  }
  return h.digest('hex');
}

function run(label, cmd, cmdArgs, options) {
  const r = spawnSync(cmd, cmdArgs, { encoding: 'utf8', ...options });
  if (r.status !== 0) fail(`${label} failed (exit ${r.status ?? r.signal}):\n${r.stdout ?? ''}${r.stderr ?? ''}`);
}

if (!existsSync(join(ROOT, 'node_modules', '.bin', 'mm-snap'))) {
  fail('the npm packages are not installed: run npm start (or npm install) first');
}
if (!existsSync(join(ROOT, 'packages', 'starknet-spec', 'dist', 'index.js'))) {
  process.stderr.write('[snap] building @nodegate/starknet-snap dependencies (tsc -b packages/starknet-spec)…\n');
  run('tsc -b packages/starknet-spec', process.execPath, [
    join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-b',
    join(ROOT, 'packages', 'starknet-spec'),
  ]);
}
const stamp = join(OUT, 'build-inputs.sha256');
const digest = buildInputs();
const manifestFile = join(OUT, 'snap.manifest.json');
const fresh =
  !args.rebuild &&
  existsSync(stamp) &&
  existsSync(manifestFile) &&
  existsSync(join(OUT, 'dist', 'bundle.js')) &&
  readFileSync(stamp, 'utf8') === digest;
if (fresh) {
  process.stderr.write('[snap] the served build is up to date\n');
} else {
  process.stderr.write('[snap] building the snap for this gateway (mm-snap build, about a minute)…\n');
  if (existsSync(OUT) && readdirSync(OUT).length > 0 && !existsSync(manifestFile)) {
    fail(`${OUT} is not empty and holds no snap build: give --out an empty or new folder`);
  }
  // only what an earlier build left here is replaced
  rmSync(stamp, { force: true });
  rmSync(join(OUT, 'dist'), { recursive: true, force: true });
  mkdirSync(join(OUT, 'images'), { recursive: true });
  for (const f of ['package.json', 'snap.manifest.json', join('images', 'icon.svg')]) {
    copyFileSync(join(SNAP, f), join(OUT, f));
  }
  run('mm-snap build', join(ROOT, 'node_modules', '.bin', 'mm-snap'), ['build'], { cwd: SNAP, env });
  writeFileSync(stamp, digest);
}

// --- serve ----------------------------------------------------------------------------------------------------------
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const npm = manifest.source.location.npm;
/** What MetaMask fetches: the manifest, package.json, the bundle, the icon, auxiliary and locale files. */
const served = new Map(
  ['snap.manifest.json', 'package.json', npm.filePath, npm.iconPath, ...(manifest.source.files ?? [])]
    .concat(manifest.source.locales ?? [])
    .filter(Boolean)
    .map((f) => [`/${f.replace(/^\.?\//, '')}`, join(OUT, f)]),
);
const TYPES = { json: 'application/json', js: 'text/javascript', svg: 'image/svg+xml', html: 'text/html' };
const EXTENSION = /^(chrome|moz|safari-web)-extension:\/\/[A-Za-z0-9._-]+$/;

function installPage(snapId) {
  const id = JSON.stringify(snapId);
  return `<!doctype html>
<meta charset="utf-8">
<title>nodegate Starknet snap</title>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto">
<h1>nodegate Starknet snap</h1>
<p>Snap id <code>${snapId}</code>. In a browser with MetaMask Flask, press Install and approve MetaMask's dialogs.</p>
<button id="install">Install</button>
<pre id="result"></pre>
<script>
const snapId = ${id};
const show = (text) => { document.getElementById('result').textContent = text; };
document.getElementById('install').onclick = async () => {
  if (!window.ethereum) return show('No MetaMask here: install MetaMask Flask (https://metamask.io/flask/).');
  try {
    await window.ethereum.request({ method: 'wallet_requestSnaps', params: { [snapId]: {} } });
    const network = await window.ethereum.request({
      method: 'wallet_invokeSnap',
      params: { snapId, request: { method: 'stk_getCurrentNetwork', params: {} } },
    });
    show('Installed. The snap uses ' + network.name + ' (' + network.chainId + ') through nodegate.');
  } catch (e) {
    show('Failed: ' + (e && e.message ? e.message : String(e)));
  }
};
</script>
`;
}

function listen(host, p) {
  return new Promise((ok, ko) => {
    const server = createServer(handle);
    server.once('error', ko);
    server.listen(p, host, () => ok(server));
  });
}

let actualPort = port;
function handle(req, res) {
  const loopback = [`localhost:${actualPort}`, `127.0.0.1:${actualPort}`, `[::1]:${actualPort}`];
  const origin = req.headers.origin;
  const self = loopback.map((h) => `http://${h}`);
  const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', vary: 'Origin' };
  if (!loopback.includes(req.headers.host ?? '')) {
    res.writeHead(403, headers).end('this server answers only for localhost\n');
    return;
  }
  if (origin !== undefined && !EXTENSION.test(origin) && !self.includes(origin)) {
    res.writeHead(403, headers).end('only MetaMask or the install page here may fetch this snap\n');
    return;
  }
  if (origin !== undefined && EXTENSION.test(origin)) headers['access-control-allow-origin'] = origin;
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { ...headers, 'access-control-allow-methods': 'GET, HEAD' }).end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, allow: 'GET, HEAD' }).end();
    return;
  }
  const path = (req.url ?? '/').split('?')[0];
  let body;
  let type;
  if (path === '/' || path === '/index.html') {
    body = installPage(snapIdOf(actualPort));
    type = TYPES.html;
  } else if (served.has(path)) {
    body = readFileSync(served.get(path));
    type = TYPES[path.split('.').pop()] ?? 'application/octet-stream';
  } else {
    res.writeHead(404, headers).end('not found\n');
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': type });
  res.end(req.method === 'HEAD' ? undefined : body);
}

const servers = [];
try {
  servers.push(await listen('127.0.0.1', port));
} catch (e) {
  fail(
    e.code === 'EADDRINUSE'
      ? `port ${port} is in use: stop what uses it, or pass --port N (and give get-starknet snapId local:http://localhost:N)`
      : `cannot listen on 127.0.0.1:${port}: ${e.message}`,
  );
}
actualPort = servers[0].address().port;
// `localhost` may resolve to ::1 first: listen there too when the machine has IPv6 loopback
servers.push(await listen('::1', actualPort).catch(() => undefined));

const snapId = snapIdOf(actualPort);
// the URL built in: --url, else SNAP_SEPOLIA_URL from the environment, else the snap's default (snap.config.ts)
const base =
  args.url ??
  process.env.SNAP_SEPOLIA_URL ??
  /SNAP_SEPOLIA_URL: '([^']*)'/.exec(readFileSync(join(SNAP, 'snap.config.ts'), 'utf8'))?.[1] ??
  "the snap's default URL";
const shortKey = `${key.slice(0, 4)}…`;
const out = (line) => process.stdout.write(`${line}\n`);
out('nodegate snap: the Starknet snap for MetaMask Flask, built for your gateway');
out(`  snap id    ${snapId}`);
out(`  network    the test network (SN_SEPOLIA): ${base.replace(/\/+$/, '')}/v3/${shortKey}  (${keySource})`);
out(`  install    open http://localhost:${actualPort}/ in the browser where MetaMask Flask runs and press Install,`);
out(`             or from any page: ethereum.request({ method: 'wallet_requestSnaps', params: { '${snapId}': {} } })`);
out(
  `  dApps      @nodegate/get-starknet uses ${actualPort === DEFAULT_PORT ? 'this snap id by default' : `this snap id with injectNodegateWallet({ snapId: '${snapId}' })`}`,
);
out('Ctrl-C stops it.');

const stop = () => {
  for (const s of servers) s?.close();
  for (const s of servers) s?.closeAllConnections();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
