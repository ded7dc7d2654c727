import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../embedded/startAnvil.js';
import { spawnGateway } from '../test-support/spawnGateway.js';
import { postJson } from '../test-support/startTestGateway.js';

// What `nodegate start` loads: the clients of PostgreSQL, Redis and undici are megabytes of heap
// each, loaded only when the config asks for them (the embedded defaults need none). A resolve
// hook in the spawned gateway writes down every package it resolves, through import or require.
let anvil: EmbeddedProcess;
const files: string[] = [];

beforeAll(async () => {
  anvil = await startAnvil();
});
afterAll(async () => {
  await anvil?.stop();
  for (const f of files) await rm(f, { force: true });
});

/** Starts the gateway on `upstream` settings, makes one call, and returns the packages it resolved. */
async function packagesLoaded(upstream: Record<string, unknown>): Promise<Set<string>> {
  const file = join(tmpdir(), `nodegate-loads-${process.pid}-${files.length}.txt`);
  files.push(file);
  const hook = [
    "import { registerHooks } from 'node:module';",
    "import { appendFileSync } from 'node:fs';",
    'registerHooks({ resolve(specifier, context, next) {',
    '  const found = next(specifier, context);',
    // bare specifiers only: not relative paths, absolute paths or URLs (`node:`, `file:`, `data:`)
    `  if (!/^([./]|[a-z]+:)/.test(specifier)) appendFileSync(${JSON.stringify(file)}, specifier + '\\n');`,
    '  return found;',
    '} });',
  ].join('\n');
  const gw = await spawnGateway(
    {
      devKey: true,
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', http: anvil.http, ...upstream }],
        },
      ],
    },
    ['--import', `data:text/javascript,${encodeURIComponent(hook)}`],
  );
  try {
    const url = `${gw.ready.networks['eth-devnet']!.http}/v3/${gw.ready.devKey!.key}`;
    const answer = await postJson(url, { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
    expect(answer.status).toBe(200);
  } finally {
    await gw.stop();
  }
  // a package's own files come as subpaths (`pg/lib/…`): its name is what counts
  return new Set(
    (await readFile(file, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((s) =>
        s
          .split('/')
          .slice(0, s.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
  );
}

describe('what the gateway loads', () => {
  it('on the embedded defaults: no PostgreSQL, Redis or undici client (the packages it serves with, yes)', async () => {
    const loaded = await packagesLoaded({});
    expect(loaded.has('fastify')).toBe(true);
    expect(loaded.has('pino')).toBe(true);
    for (const name of ['pg', 'ioredis', 'undici']) expect(loaded.has(name), name).toBe(false);
  });

  it('an upstream with `client: undici` loads undici', async () => {
    const loaded = await packagesLoaded({ client: 'undici' });
    expect(loaded.has('undici')).toBe(true);
    expect(loaded.has('pg')).toBe(false);
  });
});
