/**
 * Forking: a dev chain started on top of another (the origin runs as its own process, as any Starknet node would):
 * reads of state the fork never wrote come from the origin at the fork block and are kept, requests about the
 * origin's blocks and transactions are forwarded, local transactions build on the origin's state, and nothing the
 * origin does after the fork block reaches the fork.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Account, config, hash, RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRK_ADDRESS } from '../chain/processTransaction.js';
import { type RunningDevchain, startDevchain } from '../startDevchain.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';

config.set('logLevel', 'ERROR');

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'devchain-fork-'));
const STRK = `0x${STRK_ADDRESS.toString(16)}`;

let origin: { child: ChildProcess; rpc: string };
let fork: RunningDevchain;
let forkBlock: number;
let originTransfer: string;

async function startOrigin(): Promise<{ child: ChildProcess; rpc: string }> {
  const ready = join(dir, 'origin-ready.json');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, '..', 'cli.ts'),
      '--listen',
      '127.0.0.1:0',
      '--accounts',
      '2',
      '--ready-file',
      ready,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 50));
  return { child, rpc: JSON.parse(readFileSync(ready, 'utf8')).rpc };
}

const balance = (url: string, who: string, block: unknown = 'latest') =>
  rpcResult(url, 'devnet_getAccountBalance', { address: who, unit: 'FRI', block_id: block }).then((r) =>
    BigInt(r.amount),
  );

async function transfer(url: string, to: string, amount: bigint): Promise<string> {
  const provider = new RpcProvider({ nodeUrl: url });
  const [a] = await rpcResult(url, 'devnet_getPredeployedAccounts');
  const account = new Account({ provider, address: a.address, signer: a.private_key });
  const { transaction_hash } = await account.execute({
    contractAddress: STRK,
    entrypoint: 'transfer',
    calldata: [to, amount, 0n],
  });
  await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
  return transaction_hash;
}

beforeAll(async () => {
  origin = await startOrigin();
  originTransfer = await transfer(origin.rpc, '0xa11ce', 1000n);
  await rpcResult(origin.rpc, 'devnet_mint', { address: '0xb0b', amount: 500, unit: 'FRI' });
  forkBlock = await rpcResult(origin.rpc, 'starknet_blockNumber');
  fork = await startDevchain({ port: 0, accounts: 2, forkNetwork: origin.rpc, dataDir: join(dir, 'fork') });
});

afterAll(async () => {
  await fork?.close();
  origin?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('a dev chain forked from another', () => {
  it("starts after the fork block, with the origin's chain id and its block hash as parent", async () => {
    expect(await rpcResult(fork.rpcUrl, 'starknet_blockNumber')).toBe(forkBlock + 1);
    expect(await rpcResult(fork.rpcUrl, 'starknet_chainId')).toBe(await rpcResult(origin.rpc, 'starknet_chainId'));
    const originBlock = await rpcResult(origin.rpc, 'starknet_getBlockWithTxHashes', {
      block_id: { block_number: forkBlock },
    });
    const first = await rpcResult(fork.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: 'latest' });
    expect(first.parent_hash).toBe(originBlock.block_hash);
    const update = await rpcResult(fork.rpcUrl, 'starknet_getStateUpdate', { block_id: 'latest' });
    expect(update.old_root).toBe(originBlock.new_root);
    expect((await rpcResult(fork.rpcUrl, 'devnet_getConfig')).fork_config).toEqual({
      url: origin.rpc.replace(/\/rpc$/, '/rpc'),
      block_number: forkBlock,
    });
  });

  it('reads state it never wrote from the origin once, then from its own copy', async () => {
    const before = fork.node.forkOrigin!.readCounts;
    expect(await balance(fork.rpcUrl, '0xb0b')).toBe(500n);
    const first = fork.node.forkOrigin!.readCounts;
    expect(first.fetched).toBeGreaterThan(before.fetched);
    expect(await balance(fork.rpcUrl, '0xb0b')).toBe(500n);
    const second = fork.node.forkOrigin!.readCounts;
    expect(second.fetched).toBe(first.fetched);
    expect(second.cached).toBeGreaterThan(first.cached);
    // a contract only the origin has: its class hash and class come from there
    expect(
      await rpcResult(fork.rpcUrl, 'starknet_getClassHashAt', { block_id: 'latest', contract_address: STRK }),
    ).toBe(await rpcResult(origin.rpc, 'starknet_getClassHashAt', { block_id: 'latest', contract_address: STRK }));
  });

  it("answers the origin's blocks and transactions by forwarding them, but not what the origin made after the fork", async () => {
    const block = await rpcResult(fork.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: { block_number: 1 } });
    expect(block).toEqual(
      await rpcResult(origin.rpc, 'starknet_getBlockWithTxHashes', { block_id: { block_number: 1 } }),
    );
    const byHash = await rpcResult(fork.rpcUrl, 'starknet_getBlockWithTxHashes', {
      block_id: { block_hash: block.block_hash },
    });
    expect(byHash.block_number).toBe(1);
    const receipt = await rpcResult(fork.rpcUrl, 'starknet_getTransactionReceipt', {
      transaction_hash: originTransfer,
    });
    expect(receipt.transaction_hash).toBe(originTransfer);
    // state at an origin block: the origin's answer (starknet_call of the token there)
    const call = (url: string) =>
      rpcResult(url, 'starknet_call', {
        request: {
          contract_address: STRK,
          entry_point_selector: hash.getSelectorFromName('balance_of'),
          calldata: ['0xa11ce'],
        },
        block_id: { block_number: 1 },
      });
    expect(await call(fork.rpcUrl)).toEqual(await call(origin.rpc));
    expect(BigInt((await call(fork.rpcUrl))[0])).toBe(1000n);
    // the origin goes on after the fork block: none of it is the fork's
    const later = await transfer(origin.rpc, '0xca7', 7n);
    expect((await rawRpc(fork.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: later })).error?.code).toBe(
      29,
    );
    expect(
      (await rawRpc(fork.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: { block_number: forkBlock + 5 } })).error
        ?.code,
    ).toBe(24);
    expect(await balance(fork.rpcUrl, '0xca7')).toBe(0n);
    // events: a range up to the fork block is the origin's; one across it is refused with the way to ask
    const events = await rpcResult(fork.rpcUrl, 'starknet_getEvents', {
      filter: {
        from_block: { block_number: 0 },
        to_block: { block_number: forkBlock },
        address: STRK,
        chunk_size: 100,
      },
    });
    expect(events.events.map((e: { transaction_hash: string }) => e.transaction_hash)).toContain(originTransfer);
    const across = await rawRpc(fork.rpcUrl, 'starknet_getEvents', {
      filter: { from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 10 },
    });
    expect(across.error?.code).toBe(-32602);
    expect(JSON.stringify(across.error)).toMatch(/crosses the fork block/);
  });

  it("builds local transactions on the origin's state (same seed: the origin's accounts, nonces and balances)", async () => {
    const [a] = await rpcResult(fork.rpcUrl, 'devnet_getPredeployedAccounts');
    const originBalance = await balance(origin.rpc, a.address, { block_number: forkBlock });
    expect(await balance(fork.rpcUrl, a.address)).toBe(originBalance);
    const nonce = await rpcResult(fork.rpcUrl, 'starknet_getNonce', {
      block_id: 'latest',
      contract_address: a.address,
    });
    expect(BigInt(nonce)).toBe(1n); // its transfer on the origin
    await transfer(fork.rpcUrl, '0xd00d', 42n);
    expect(await balance(fork.rpcUrl, '0xd00d')).toBe(42n);
    expect(await balance(origin.rpc, '0xd00d')).toBe(0n);
    expect(await balance(fork.rpcUrl, a.address)).toBeLessThan(originBalance - 42n);
  });

  it('keeps its fork across a restart of the chain and of the process', async () => {
    await rpcResult(fork.rpcUrl, 'devnet_restart');
    expect(await rpcResult(fork.rpcUrl, 'starknet_blockNumber')).toBe(forkBlock + 1);
    expect(await balance(fork.rpcUrl, '0xd00d')).toBe(0n);
    await transfer(fork.rpcUrl, '0xd00d', 5n);
    await fork.close();
    fork = await startDevchain({ port: 0, dataDir: join(dir, 'fork') });
    expect(await rpcResult(fork.rpcUrl, 'starknet_blockNumber')).toBe(forkBlock + 2);
    expect(await balance(fork.rpcUrl, '0xd00d')).toBe(5n);
    expect(await balance(fork.rpcUrl, '0xb0b')).toBe(500n);
  });

  it('answers -1 naming the origin when the origin is away', async () => {
    origin.child.kill('SIGTERM');
    await new Promise((r) => origin.child.once('exit', r));
    const r = await rawRpc(fork.rpcUrl, 'starknet_getStorageAt', {
      contract_address: '0xfeedbeef',
      key: '0x1',
      block_id: 'latest',
    });
    expect(r.error?.code).toBe(-1);
    expect(r.error?.message).toMatch(
      /the fork origin http:\/\/127\.0\.0\.1:\d+\/rpc could not answer starknet_\w+: unreachable/,
    );
    // what was read before is still there
    expect(await balance(fork.rpcUrl, '0xb0b')).toBe(500n);
  });
});

describe('starting a fork', () => {
  it('fails with a clear message when the origin does not answer', async () => {
    await expect(startDevchain({ port: 0, forkNetwork: 'http://127.0.0.1:9/rpc' })).rejects.toThrow(
      /fork origin 127\.0\.0\.1:9 does not answer starknet_chainId/,
    );
    await expect(startDevchain({ port: 0, forkNetwork: 'nope' })).rejects.toThrow(/not a URL/);
  });
});
