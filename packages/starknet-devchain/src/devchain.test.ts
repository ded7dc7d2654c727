import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { num } from 'starknet';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from './startDevchain.js';
import { rawRpc, rpcResult } from './testing/rpc.js';
import { invokeV3, transferCalldata } from './testing/signedTx.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'devchain-test-'));
  dirs.push(d);
  return d;
};

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function snapshot(url: string, addresses: string[]) {
  const latest = await rpcResult(url, 'starknet_blockNumber');
  const blocks = [];
  for (let b = 0; b <= latest; b++)
    blocks.push(await rpcResult(url, 'starknet_getBlockWithReceipts', { block_id: { block_number: b } }));
  const state = [];
  for (const a of addresses) {
    state.push(await rpcResult(url, 'starknet_getNonce', { block_id: 'latest', contract_address: a }));
    state.push(
      await rpcResult(url, 'starknet_call', {
        request: {
          contract_address: STRK,
          entry_point_selector: '0x2e4263afad30923c891518314c3c95dbe830a16874e8abc5777a9a20b54c76e',
          calldata: [a],
        },
        block_id: 'latest',
      }),
    );
  }
  return { latest, blocks, state };
}

async function sendTransfers(dc: RunningDevchain, n: number) {
  const accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  const a = accounts[0];
  for (let i = 0; i < n; i++) {
    const nonce = BigInt(
      await rpcResult(dc.rpcUrl, 'starknet_getNonce', { block_id: 'pre_confirmed', contract_address: a.address }),
    );
    const t = invokeV3(a.address, transferCalldata(STRK, accounts[1].address, BigInt(i + 1)), nonce, a.private_key);
    await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
  }
  return accounts.map((x: { address: string }) => x.address) as string[];
}

describe('persistence and devnet methods', () => {
  it('a restart with the same data directory keeps blocks, balances and nonces', async () => {
    const dir = tmp();
    let dc = await startDevchain({ port: 0, dataDir: dir });
    const addresses = await sendTransfers(dc, 4);
    await rpcResult(dc.rpcUrl, 'devnet_mint', { address: addresses[2], amount: 12345, unit: 'FRI' });
    await rpcResult(dc.rpcUrl, 'devnet_increaseTime', { time: 3600 });
    const before = await snapshot(dc.rpcUrl, addresses.slice(0, 3));
    expect(before.latest).toBe(6);
    await dc.close();
    dc = await startDevchain({ port: 0, dataDir: dir, seed: 99 });
    expect(await snapshot(dc.rpcUrl, addresses.slice(0, 3))).toEqual(before);
    // The chain goes on from where it was.
    await sendTransfers(dc, 1);
    expect(await rpcResult(dc.rpcUrl, 'starknet_blockNumber')).toBe(7);
    await dc.close();
  });

  it('devnet_dump, devnet_load and devnet_restart', async () => {
    const dc = await startDevchain({ port: 0 });
    const addresses = await sendTransfers(dc, 2);
    const file = join(tmp(), 'dump.jsonl');
    expect(await rpcResult(dc.rpcUrl, 'devnet_dump', { path: file })).toBeNull();
    expect(readFileSync(file, 'utf8').split('\n').length).toBeGreaterThan(3);
    const inline = await rpcResult(dc.rpcUrl, 'devnet_dump', {});
    expect(inline[0].kind).toBe('config');
    expect(inline[inline.length - 1]).toMatchObject({ kind: 'block', number: 2 });
    expect(inline[inline.length - 1].hash).toMatch(/^0x[0-9a-f]+$/);
    const dumped = await snapshot(dc.rpcUrl, addresses.slice(0, 2));
    await rpcResult(dc.rpcUrl, 'devnet_restart', {});
    expect(await rpcResult(dc.rpcUrl, 'starknet_blockNumber')).toBe(0);
    const genesis = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: 'latest' });
    expect(genesis.block_hash).toBe(dumped.blocks[0].block_hash);
    await rpcResult(dc.rpcUrl, 'devnet_load', { path: file });
    expect(await snapshot(dc.rpcUrl, addresses.slice(0, 2))).toEqual(dumped);
    expect((await rawRpc(dc.rpcUrl, 'devnet_load', { path: join(tmp(), 'missing') })).error?.code).toBe(-32602);
    await dc.close();
  });

  it('with a data directory, dumps stay inside <data-dir>/dumps', async () => {
    const dir = tmp();
    const dc = await startDevchain({ port: 0, dataDir: dir, accounts: 1 });
    await rpcResult(dc.rpcUrl, 'devnet_createBlock');
    expect(await rpcResult(dc.rpcUrl, 'devnet_dump', { path: 'snap.jsonl' })).toBeNull();
    expect(readFileSync(join(dir, 'dumps', 'snap.jsonl'), 'utf8').length).toBeGreaterThan(0);
    expect((await rawRpc(dc.rpcUrl, 'devnet_dump', { path: '../escape.jsonl' })).error?.code).toBe(-32602);
    expect((await rawRpc(dc.rpcUrl, 'devnet_load', { path: '/etc/passwd' })).error?.code).toBe(-32602);
    await rpcResult(dc.rpcUrl, 'devnet_createBlock');
    await rpcResult(dc.rpcUrl, 'devnet_load', { path: 'snap.jsonl' });
    expect(await rpcResult(dc.rpcUrl, 'starknet_blockNumber')).toBe(1);
    await dc.close();
  });

  it('devnet_mint, devnet_createBlock, devnet_setTime and devnet_increaseTime', async () => {
    const dc = await startDevchain({ port: 0, accounts: 2 });
    const url = dc.rpcUrl;
    const minted = await rpcResult(url, 'devnet_mint', { address: '0x1234', amount: 1000, unit: 'FRI' });
    expect(minted).toMatchObject({ new_balance: '1000', unit: 'FRI' });
    const r = await rpcResult(url, 'starknet_getTransactionReceipt', { transaction_hash: minted.tx_hash });
    expect(r).toMatchObject({ type: 'L1_HANDLER', execution_status: 'SUCCEEDED', finality_status: 'ACCEPTED_ON_L2' });
    const wei = await rpcResult(url, 'devnet_mint', { address: '0x1234', amount: '0x10', unit: 'WEI' });
    expect(wei.new_balance).toBe('16');
    expect(await rpcResult(url, 'devnet_getAccountBalance', { address: '0x1234' })).toEqual({
      amount: '1000',
      unit: 'FRI',
    });
    expect(await rpcResult(url, 'devnet_getAccountBalance', ['0x1234', 'WEI', 'latest'])).toEqual({
      amount: '16',
      unit: 'WEI',
    });
    expect(
      await rpcResult(url, 'devnet_getAccountBalance', { address: '0x1234', block_id: { block_number: 0 } }),
    ).toEqual({ amount: '0', unit: 'FRI' });
    const n = await rpcResult(url, 'starknet_blockNumber');
    const created = await rpcResult(url, 'devnet_createBlock');
    const head = await rpcResult(url, 'starknet_blockHashAndNumber');
    expect(head).toEqual({ block_hash: created.block_hash, block_number: n + 1 });
    const set = await rpcResult(url, 'devnet_setTime', { time: 2_000_000_000, generate_block: true });
    const b = await rpcResult(url, 'starknet_getBlockWithTxHashes', { block_id: { block_hash: set.block_hash } });
    expect(b.timestamp).toBe(2_000_000_000);
    const inc = await rpcResult(url, 'devnet_increaseTime', { time: 100 });
    const b2 = await rpcResult(url, 'starknet_getBlockWithTxHashes', { block_id: { block_hash: inc.block_hash } });
    expect(b2.timestamp).toBeGreaterThanOrEqual(2_000_000_100);
    expect(b2.parent_hash).toBe(set.block_hash);
    const cfg = await rpcResult(url, 'devnet_getConfig');
    expect(cfg.total_accounts).toBe(2);
    await dc.close();
  });

  it('mines on demand: transactions wait in the pre-confirmed block until devnet_createBlock', async () => {
    const dc = await startDevchain({ port: 0, mineOnDemand: true });
    const accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
    const a = accounts[0];
    const t = invokeV3(a.address, transferCalldata(STRK, accounts[1].address, 1n), 0n, a.private_key);
    await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    const status = await rpcResult(dc.rpcUrl, 'starknet_getTransactionStatus', { transaction_hash: t.hash });
    expect(status.finality_status).toBe('PRE_CONFIRMED');
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t.hash });
    expect(receipt).not.toHaveProperty('block_hash');
    expect(receipt.block_number).toBe(1);
    expect(await rpcResult(dc.rpcUrl, 'starknet_getNonce', { block_id: 'latest', contract_address: a.address })).toBe(
      '0x0',
    );
    expect(
      await rpcResult(dc.rpcUrl, 'starknet_getNonce', { block_id: 'pre_confirmed', contract_address: a.address }),
    ).toBe('0x1');
    const pending = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: 'pre_confirmed' });
    expect(pending.transactions).toEqual([t.hash]);
    const events = await rpcResult(dc.rpcUrl, 'starknet_getEvents', {
      filter: { from_block: 'pre_confirmed', to_block: 'pre_confirmed', chunk_size: 10 },
    });
    expect(events.events).toHaveLength(2);
    expect(events.events[0]).not.toHaveProperty('block_hash');
    await rpcResult(dc.rpcUrl, 'devnet_createBlock');
    const after = await rpcResult(dc.rpcUrl, 'starknet_getTransactionStatus', { transaction_hash: t.hash });
    expect(after.finality_status).toBe('ACCEPTED_ON_L2');
    expect(
      num.toHex(await rpcResult(dc.rpcUrl, 'starknet_getNonce', { block_id: 'latest', contract_address: a.address })),
    ).toBe('0x1');
    await dc.close();
  });

  it('mines on an interval: empty blocks too, pending transactions in the next block, nothing after close', async () => {
    const interval = 200;
    const dc = await startDevchain({ port: 0, blockIntervalMs: interval });
    const first = await rpcResult(dc.rpcUrl, 'starknet_blockNumber');
    // no transaction at all: blocks still come, and they are empty
    let n = first;
    for (let i = 0; i < 100 && n < first + 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      n = await rpcResult(dc.rpcUrl, 'starknet_blockNumber');
    }
    expect(n).toBeGreaterThanOrEqual(first + 2);
    const empty = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', {
      block_id: { block_number: first + 1 },
    });
    expect(empty.transactions).toEqual([]);
    expect(empty.parent_hash).toBe(
      (await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: { block_number: first } })).block_hash,
    );
    // a transaction waits in the pre-confirmed block and lands in the next interval's block
    const accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
    const a = accounts[0];
    const t = invokeV3(a.address, transferCalldata(STRK, accounts[1].address, 1n), 0n, a.private_key);
    const before = await rpcResult(dc.rpcUrl, 'starknet_blockNumber');
    await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    let status = await rpcResult(dc.rpcUrl, 'starknet_getTransactionStatus', { transaction_hash: t.hash });
    for (let i = 0; i < 100 && status.finality_status !== 'ACCEPTED_ON_L2'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = await rpcResult(dc.rpcUrl, 'starknet_getTransactionStatus', { transaction_hash: t.hash });
    }
    expect(status.finality_status).toBe('ACCEPTED_ON_L2');
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t.hash });
    expect(receipt.block_number).toBeGreaterThan(before);
    const landed = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', {
      block_id: { block_number: receipt.block_number },
    });
    expect(landed.transactions).toEqual([t.hash]);
    // close stops the interval: the chain does not move any more
    await dc.close();
    const closedAt = dc.node.chain.latestNumber;
    await new Promise((r) => setTimeout(r, interval * 4));
    expect(dc.node.chain.latestNumber).toBe(closedAt);
  });

  it('mines no block on its own without an interval (one per transaction)', async () => {
    const dc = await startDevchain({ port: 0 });
    const first = await rpcResult(dc.rpcUrl, 'starknet_blockNumber');
    await new Promise((r) => setTimeout(r, 600));
    expect(await rpcResult(dc.rpcUrl, 'starknet_blockNumber')).toBe(first);
    await dc.close();
  });
});
