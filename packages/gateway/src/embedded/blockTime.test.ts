import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createPublicClient, webSocket } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config/ConfigError.js';
import { embeddedConfig } from '../config/embeddedConfig.js';
import { parseBlockTime } from '../config/parseEmbedded.js';
import { validateConfig } from '../config/validateConfig.js';
import { withBlockTime } from '../config/withBlockTime.js';
import { openWsClient } from '../test-support/openWsClient.js';
import { until } from '../test-support/until.js';
import { describeBlockProduction } from './describeBlockProduction.js';

const run = promisify(execFile);
// The CLI as users run it: the built bin (npm test builds before testing).
const CLI = new URL('../../dist/cli/main.js', import.meta.url).pathname;

const chains = (embedded?: unknown) =>
  validateConfig({
    listen: '127.0.0.1:0',
    networks: [
      { name: 'eth-devnet', family: 'eth', pathPrefix: '/eth', upstreams: [{ name: 'a', embedded: 'anvil' }] },
      {
        name: 'starknet-devnet',
        family: 'starknet',
        pathPrefix: '/stk',
        upstreams: [{ name: 'd', embedded: 'starknet-devchain' }],
      },
    ],
    ...(embedded === undefined ? {} : { embedded }),
  });

describe('block time: config', () => {
  it('defaults to on demand for both dev chains; embedded.<chain>.blockTime sets one', () => {
    const blockTimes = (c: ReturnType<typeof chains>) => [c.embedded.anvil, c.embedded['starknet-devchain']];
    expect(blockTimes(chains())).toEqual([{ blockTime: undefined }, { blockTime: undefined }]);
    expect(blockTimes(embeddedConfig())).toEqual([{ blockTime: undefined }, { blockTime: undefined }]);
    expect(blockTimes(chains({ 'starknet-devchain': { blockTime: 0.5 } }))).toEqual([
      { blockTime: undefined },
      { blockTime: 0.5 },
    ]);
  });

  it('refuses a bad block time or field, naming it', () => {
    const bad = (embedded: unknown) => {
      try {
        chains(embedded);
      } catch (e) {
        return e instanceof ConfigError ? e.message : `not a ConfigError: ${String(e)}`;
      }
      return 'accepted';
    };
    expect(bad({ anvil: { blockTime: 0 } })).toMatch(/^embedded\.anvil\.blockTime: must be a number of seconds/);
    expect(bad({ anvil: { blockTime: '2' } })).toMatch(/^embedded\.anvil\.blockTime: must be a number/);
    expect(bad({ 'starknet-devchain': { blockTime: 100_000 } })).toMatch(/^embedded\.starknet-devchain\.blockTime/);
    expect(bad({ anvil: { blocktime: 2 } })).toMatch(/^embedded\.anvil\.blocktime: unknown field/);
    expect(bad({ starknet: { blockTime: 2 } })).toMatch(
      /^embedded\.starknet: unknown field \(known: .*anvil, starknet-devchain\)/,
    );
    expect(bad([])).toMatch(/^embedded: must be an object/);
  });

  it('--block-time takes decimal seconds and nothing else', () => {
    expect(parseBlockTime('1', '--block-time', true)).toBe(1);
    expect(parseBlockTime('0.5', '--block-time', true)).toBe(0.5);
    for (const v of ['0', '-1', 'abc', '1e3', '', ' ', '0x10', '86401', 'Infinity']) {
      expect(() => parseBlockTime(v, '--block-time', true), v).toThrow(/^--block-time: must be a number of seconds/);
    }
  });

  it('withBlockTime sets both chains over a config file, and leaves the rest alone', () => {
    const base = chains({ anvil: { blockTime: 5 } });
    const c = withBlockTime(base, 2);
    expect([c.embedded.anvil, c.embedded['starknet-devchain']]).toEqual([{ blockTime: 2 }, { blockTime: 2 }]);
    expect(c.networks).toBe(base.networks);
    expect(Object.isFrozen(c) && Object.isFrozen(c.embedded) && Object.isFrozen(c.embedded.anvil)).toBe(true);
    expect(base.embedded.anvil.blockTime).toBe(5);
  });

  it('the startup summary says which: on demand (and how to change it), every N s, or per chain', () => {
    expect(describeBlockProduction(embeddedConfig())).toBe(
      'blocks: on demand (each transaction mines one); --block-time N to mine every N s',
    );
    expect(describeBlockProduction(withBlockTime(embeddedConfig(), 2))).toBe(
      'blocks: every 2 s, empty or not (anvil, starknet-devchain); a transaction waits for the next block',
    );
    expect(describeBlockProduction(chains({ anvil: { blockTime: 0.5 } }))).toBe(
      'blocks: anvil every 0.5 s; starknet-devchain on demand (each transaction mines one)',
    );
    const remote = validateConfig({
      networks: [
        { name: 'm', family: 'eth', pathPrefix: '/m', upstreams: [{ name: 'r', http: 'http://10.0.0.5:8545' }] },
      ],
    });
    expect(describeBlockProduction(remote)).toBeUndefined();
  });
});

describe('block time: nodegate start --block-time 1', () => {
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let ready: { networks: Record<string, { http: string; ws: string }>; devKey: { key: string } };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nodegate-blocktime-'));
    const readyFile = join(dir, 'ready.json');
    child = spawn(process.execPath, [
      CLI,
      'start',
      '--listen',
      '127.0.0.1:0',
      '--data-dir',
      join(dir, 'data'),
      '--ready-file',
      readyFile,
      '--block-time',
      '1',
    ]);
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    const end = Date.now() + 90_000;
    while (!existsSync(readyFile)) {
      if (child.exitCode !== null) throw new Error(`gateway exited: ${output}`);
      if (Date.now() > end) throw new Error(`no ready file: ${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    ready = JSON.parse(await readFile(readyFile, 'utf8'));
  });

  afterAll(async () => {
    if (child && child.exitCode === null) {
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      });
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('says so in the startup summary', () => {
    expect(output).toContain(
      'blocks: every 1 s, empty or not (anvil, starknet-devchain); a transaction waits for the next block',
    );
  });

  it('a viem watchBlocks client (eth_subscribe newHeads over WebSocket) through the gateway gets heads with no transaction sent', async () => {
    const net = ready.networks['eth-devnet']!;
    const client = createPublicClient({ chain: foundry, transport: webSocket(`${net.ws}/ws/v3/${ready.devKey.key}`) });
    const seen: bigint[] = [];
    const start = await client.getBlockNumber({ cacheTime: 0 });
    const unwatch = client.watchBlocks({ onBlock: (b) => seen.push(b.number!), onError: () => {} });
    try {
      await until(async () => seen.filter((n) => n > start).length >= 2, 'two new heads', { tries: 150 });
    } finally {
      unwatch();
      await client.transport.getRpcClient().then((c) => c.close());
    }
    const fresh = seen.filter((n) => n > start);
    for (let i = 1; i < fresh.length; i++) expect(fresh[i]).toBeGreaterThan(fresh[i - 1]!);
  });

  it('a starknet_subscribeNewHeads client through the gateway gets heads with no transaction sent', async () => {
    const net = ready.networks['starknet-devnet']!;
    const c = await openWsClient(`${net.ws}/ws/v3/${ready.devKey.key}`);
    try {
      const sub = await c.call('starknet_subscribeNewHeads', {});
      expect(sub.error).toBeUndefined();
      const id = sub.result as string;
      // the first notification is the head at subscription time; then the chain moves on its own
      const heads = await until(
        async () => {
          const numbers = c.events(id).map((n) => n.params.result.block_number as number);
          return numbers.length >= 3 ? numbers : undefined;
        },
        'three Starknet heads',
        { tries: 150 },
      );
      expect(heads[2]!).toBeGreaterThan(heads[0]!);
      for (let i = 1; i < heads.length; i++) expect(heads[i]).toBeGreaterThan(heads[i - 1]!);
    } finally {
      c.close();
    }
  });
});

describe('block time: a bad --block-time', () => {
  it('stops nodegate start before anything starts, naming the flag', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'nodegate-blocktime-bad-'));
    try {
      const r = await run(process.execPath, [CLI, 'start', '--data-dir', dataDir, '--block-time', '0']).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/--block-time: must be a number of seconds from 0\.1 to 86400/);
      expect(existsSync(join(dataDir, 'anvil'))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
