import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createWalletClient, http } from 'viem';
import { foundry } from 'viem/chains';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/ConfigError.js';
import { embeddedConfig } from '../../config/embeddedConfig.js';
import { validateConfig } from '../../config/validateConfig.js';
import { withBlockTime } from '../../config/withBlockTime.js';
import { type RunningGateway, startGateway } from '../../main.js';
import { STORAGE_CONTRACT_BYTECODE } from '../../test-support/storageContract.js';
import { WELCOME } from './welcomeState.js';

// The welcome state through the gateway, as the README's examples reach it: the documented values
// on a new data directory, given once (a restart keeps what the user did), the same whatever the
// chains' block time, and nothing of it where the config does not ask for it.

const dirs: string[] = [];
async function tempDir() {
  const d = await mkdtemp(join(tmpdir(), 'nodegate-welcome-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const { eth, starknet, ipfs } = WELCOME;

async function rpc(url: string, method: string, params: unknown): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: unknown };
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function kubo(gw: RunningGateway, command: string, query = '') {
  const auth = Buffer.from(`${gw.devKey!.key}:${gw.devKey!.secret}`).toString('base64');
  const res = await fetch(`${gw.ipfs}/api/v0/${command}${query}`, {
    method: 'POST',
    headers: { authorization: `Basic ${auth}` },
  });
  return { status: res.status, text: await res.text() };
}

const urls = (gw: RunningGateway, key = gw.devKey?.key ?? 'none') => ({
  eth: `${gw.networks['eth-devnet']!.http}/v3/${key}`,
  stk: `${gw.networks['starknet-devnet']!.http}/v3/${key}`,
});

/** The documented Ethereum and Starknet welcome blocks, read through the gateway. */
async function expectDocumentedChains(gw: RunningGateway, key?: string) {
  const u = urls(gw, key);
  const client = createPublicClient({ chain: foundry, transport: http(u.eth) });
  const blocks = await Promise.all([0n, 1n, 2n].map((n) => client.getBlock({ blockNumber: n })));
  expect(blocks.map((b) => b.hash)).toEqual([eth.genesisHash, eth.deployBlockHash, eth.transferBlockHash]);
  expect(blocks.map((b) => Number(b.timestamp))).toEqual([
    eth.timestamps.genesis,
    eth.timestamps.deploy,
    eth.timestamps.transfer,
  ]);
  expect(blocks[1]!.transactions).toEqual([eth.deployTransaction]);
  expect(blocks[2]!.transactions).toEqual([eth.transferTransaction]);
  expect(await client.getStorageAt({ address: eth.contract, slot: '0x0' })).toBe(eth.slot0);
  const deploy = await client.getTransactionReceipt({ hash: eth.deployTransaction });
  expect(deploy.contractAddress?.toLowerCase()).toBe(eth.contract.toLowerCase());
  const transfer = await client.getTransaction({ hash: eth.transferTransaction });
  expect([transfer.from.toLowerCase(), transfer.to?.toLowerCase(), transfer.value]).toEqual([
    eth.account.toLowerCase(),
    eth.recipient.toLowerCase(),
    eth.transferValue,
  ]);

  const stkBlocks = await Promise.all(
    [0, 1, 2].map((n) => rpc(u.stk, 'starknet_getBlockWithTxHashes', { block_id: { block_number: n } })),
  );
  expect(stkBlocks.map((b) => b.block_hash)).toEqual(starknet.blockHashes);
  expect(stkBlocks.map((b) => b.transactions)).toEqual([
    [],
    [starknet.transferTransaction],
    [starknet.declareTransaction],
  ]);
  const cls = await rpc(u.stk, 'stk_getClass', { block_id: 'latest', class_hash: starknet.classHash });
  expect(cls.sierra_program.length).toBeGreaterThan(0);
  const receipt = await rpc(u.stk, 'stk_getTransactionReceipt', { transaction_hash: starknet.transferTransaction });
  expect([receipt.block_number, receipt.execution_status]).toEqual([1, 'SUCCEEDED']);
}

describe('the welcome state of the embedded backends', () => {
  it('is the same bytecode as the tests’ storage contract, and embedded.welcome is a boolean, off in config files', () => {
    expect(eth.bytecode).toBe(STORAGE_CONTRACT_BYTECODE);
    const net = { name: 'n', family: 'eth', pathPrefix: '/n', upstreams: [{ name: 'a', http: 'http://127.0.0.1:1' }] };
    expect(validateConfig({ networks: [net] }).embedded.welcome).toBe(false);
    expect(validateConfig({ networks: [net], embedded: { welcome: true } }).embedded.welcome).toBe(true);
    expect(embeddedConfig().embedded.welcome).toBe(true);
    expect(withBlockTime(embeddedConfig(), 2).embedded.welcome).toBe(true);
    expect(() => validateConfig({ networks: [net], embedded: { welcome: 'yes' } })).toThrow(ConfigError);
    expect(() => validateConfig({ networks: [net], embedded: { welcome: 'yes' } })).toThrow(/embedded\.welcome/);
  });

  it('`npm start` on a new data directory: the documented blocks, contract, transactions, class and file; given once', async () => {
    const dataDir = await tempDir();
    const given: string[] = [];
    const gw = await startGateway(embeddedConfig({ listen: '127.0.0.1:0', dataDir }), {
      progress: (line) => given.push(line),
    });
    let after: { ethBlocks: bigint; stkBlock: number };
    try {
      await expectDocumentedChains(gw);
      // the start says what it gave (the terminal of `npm start`)
      expect(given.filter((l) => /welcome (state|file)/.test(l))).toHaveLength(2);
      const cat = await kubo(gw, 'cat', `?arg=${ipfs.cid}`);
      expect(cat).toEqual({ status: 200, text: ipfs.text });
      expect(JSON.parse((await kubo(gw, 'pin/ls')).text).Keys).toHaveProperty(ipfs.cid);

      // what the user does from then on: a transfer from account 1, the welcome file unpinned
      const u = urls(gw);
      const wallet = createWalletClient({ chain: foundry, transport: http(u.eth), account: eth.recipient });
      const client = createPublicClient({ chain: foundry, transport: http(u.eth) });
      const hash = await wallet.sendTransaction({ to: eth.account, value: 1n });
      const mined = await client.waitForTransactionReceipt({ hash });
      // blocks after the welcome state are on the time of day
      const block = await client.getBlock({ blockNumber: mined.blockNumber });
      expect(Number(block.timestamp)).toBeGreaterThan(Math.floor(Date.now() / 1000) - 120);
      expect((await kubo(gw, 'pin/rm', `?arg=${ipfs.cid}`)).status).toBe(200);
      after = { ethBlocks: await client.getBlockNumber(), stkBlock: await rpc(u.stk, 'starknet_blockNumber', {}) };
      expect(after).toEqual({ ethBlocks: 3n, stkBlock: 2 });
    } finally {
      await gw.close();
    }

    // a restart keeps the chains and the pins as the user left them: nothing given again
    const progress: string[] = [];
    const again = await startGateway(embeddedConfig({ listen: '127.0.0.1:0', dataDir }), {
      progress: (line) => progress.push(line),
    });
    try {
      await expectDocumentedChains(again);
      const u = urls(again);
      const client = createPublicClient({ chain: foundry, transport: http(u.eth) });
      expect({
        ethBlocks: await client.getBlockNumber(),
        stkBlock: await rpc(u.stk, 'starknet_blockNumber', {}),
      }).toEqual(after);
      expect(JSON.parse((await kubo(again, 'pin/ls')).text).Keys ?? {}).not.toHaveProperty(ipfs.cid);
      expect(progress.filter((l) => /welcome (state|file)/.test(l))).toEqual([]);
    } finally {
      await again.close();
    }
  }, 180_000);

  it('is the same whatever the block time, and a config file without embedded.welcome gets none of it', async () => {
    const chains = (dataDir: string, embedded: Record<string, unknown>) =>
      validateConfig({
        listen: '127.0.0.1:0',
        dataDir,
        devKey: true,
        embedded,
        networks: [
          { name: 'eth-devnet', family: 'eth', pathPrefix: '/e', upstreams: [{ name: 'a', embedded: 'anvil' }] },
          {
            name: 'starknet-devnet',
            family: 'starknet',
            pathPrefix: '/s',
            upstreams: [{ name: 'd', embedded: 'starknet-devchain' }],
          },
        ],
        ipfs: { pathPrefix: '/ipfs', upstream: { name: 'i', embedded: 'ipfs-node' } },
      });
    // mining every second from the start: the welcome blocks are still the documented ones
    const timedDir = await tempDir();
    const timed = await startGateway(
      chains(timedDir, { welcome: true, anvil: { blockTime: 1 }, 'starknet-devchain': { blockTime: 1 } }),
    );
    try {
      await expectDocumentedChains(timed);
      expect((await kubo(timed, 'cat', `?arg=${ipfs.cid}`)).status).toBe(200);
    } finally {
      await timed.close();
    }
    // welcome left out: chains at genesis on the time of day, no contract, no file
    const plainDir = await tempDir();
    const plain = await startGateway(chains(plainDir, {}));
    try {
      const u = urls(plain);
      const client = createPublicClient({ chain: foundry, transport: http(u.eth) });
      expect(await client.getBlockNumber()).toBe(0n);
      expect((await client.getBlock({ blockNumber: 0n })).hash).not.toBe(eth.genesisHash);
      expect(await client.getCode({ address: eth.contract })).toBeUndefined();
      expect(await rpc(u.stk, 'starknet_blockNumber', {})).toBe(0);
      expect(JSON.parse((await kubo(plain, 'pin/ls')).text).Keys ?? {}).toEqual({});
      expect(existsSync(join(plainDir, 'ipfs-welcome.json'))).toBe(false);
    } finally {
      await plain.close();
    }
  }, 180_000);
});
