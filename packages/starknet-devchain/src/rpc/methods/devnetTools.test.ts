// The devnet tooling of starknet-devnet on the dev chain: impersonation, aborting blocks, acceptance on L1 and gas
// prices, through JSON-RPC and a WebSocket subscription.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../../startDevchain.js';
import { rawRpc, rpcResult } from '../../testing/rpc.js';
import { invokeV3, transferCalldata } from '../../testing/signedTx.js';
import { wsClient } from '../../testing/wsClient.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
let dc: RunningDevchain;
let dir: string;
let a0: { address: string; private_key: string };
let a1: { address: string; private_key: string };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devnet-tools-'));
  dc = await startDevchain({ port: 0, accounts: 2, dataDir: join(dir, 'chain') });
  [a0, a1] = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
});

afterEach(async () => {
  await dc.close();
  await rm(dir, { recursive: true, force: true });
});

const rpc = (method: string, params: unknown = {}) => rpcResult(dc.rpcUrl, method, params);
const raw = (method: string, params: unknown = {}) => rawRpc(dc.rpcUrl, method, params);
const balance = async (address: string) =>
  BigInt((await rpc('devnet_getAccountBalance', { address, unit: 'FRI', block_id: 'latest' })).amount);
/** A transfer from a0 signed with a key that is not a0's. */
const forged = (nonce: bigint, amount = 7n) =>
  invokeV3(a0.address, transferCalldata(STRK, a1.address, amount), nonce, '0x1234567');
const send = (tx: unknown) => raw('starknet_addInvokeTransaction', { invoke_transaction: tx });

describe('impersonation', () => {
  it('an impersonated sender is accepted without a valid signature; stopping needs the signature again', async () => {
    expect((await send(forged(0n).tx)).error?.code).toBe(55);
    expect(await rpc('devnet_impersonateAccount', { account_address: a0.address })).toEqual({});
    const before = await balance(a1.address);
    const sent = await send({ ...forged(0n).tx, signature: [] });
    expect(sent.error).toBeUndefined();
    const receipt = await rpc('starknet_getTransactionReceipt', sent.result);
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(await balance(a1.address)).toBe(before + 7n);
    // its trace is rebuilt without validation (it was accepted without), and estimates skip it too
    const trace = await rpc('starknet_traceTransaction', sent.result);
    expect(trace.validate_invocation).toBeUndefined();
    expect(trace.execute_invocation.calls[0].contract_address).toBe(STRK);
    const est = await raw('starknet_estimateFee', {
      request: [forged(1n).tx],
      simulation_flags: [],
      block_id: 'latest',
    });
    expect(est.error).toBeUndefined();
    expect(await rpc('devnet_stopImpersonateAccount', { account_address: a0.address })).toEqual({});
    expect((await send(forged(1n).tx)).error?.code).toBe(55);
  });

  it('auto-impersonation covers every sender until stopped', async () => {
    expect(await rpc('devnet_autoImpersonate')).toEqual({});
    expect((await send(forged(0n).tx)).error).toBeUndefined();
    const fromA1 = invokeV3(a1.address, transferCalldata(STRK, a0.address, 1n), 0n, '0x99');
    expect((await send(fromA1.tx)).error).toBeUndefined();
    expect(await rpc('devnet_stopAutoImpersonate')).toEqual({});
    expect((await send(forged(1n).tx)).error?.code).toBe(55);
  });

  it('bad params: a missing or non-felt address, an unknown param (-32602)', async () => {
    expect((await raw('devnet_impersonateAccount', {})).error?.code).toBe(-32602);
    expect((await raw('devnet_impersonateAccount', { account_address: 'nope' })).error?.code).toBe(-32602);
    expect((await raw('devnet_impersonateAccount', { address: a0.address })).error?.code).toBe(-32602);
    expect((await raw('devnet_autoImpersonate', { on: true })).error?.code).toBe(-32602);
  });

  it('restart clears it', async () => {
    await rpc('devnet_impersonateAccount', { account_address: a0.address });
    await rpc('devnet_restart');
    expect((await send(forged(0n).tx)).error?.code).toBe(55);
  });
});

describe('devnet_abortBlocks', () => {
  it('aborts blocks: their state, transactions and hashes are gone, numbering goes on from the first aborted', async () => {
    const start = await balance(a1.address);
    const t1 = invokeV3(a0.address, transferCalldata(STRK, a1.address, 11n), 0n, a0.private_key);
    const t2 = invokeV3(a0.address, transferCalldata(STRK, a1.address, 22n), 1n, a0.private_key);
    await rpc('starknet_addInvokeTransaction', { invoke_transaction: t1.tx });
    const b1 = await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' });
    await rpc('starknet_addInvokeTransaction', { invoke_transaction: t2.tx });
    const b2 = await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' });
    expect(await balance(a1.address)).toBe(start + 33n);

    const ws = await wsClient(dc.wsUrl);
    try {
      const sub = await ws.result('starknet_subscribeNewHeads', {});
      await ws.waitFor((n) => n.params.subscription_id === sub);
      const answer = await rpc('devnet_abortBlocks', { starting_block_id: { block_number: b1.block_number } });
      expect(answer).toEqual({ aborted: [b2.block_hash, b1.block_hash] });
      const [reorg] = await ws.waitFor(
        (n) => n.params.subscription_id === sub && n.method === 'starknet_subscriptionReorg',
      );
      expect(reorg!.params.result).toEqual({
        starting_block_hash: b1.block_hash,
        starting_block_number: b1.block_number,
        ending_block_hash: b2.block_hash,
        ending_block_number: b2.block_number,
      });
    } finally {
      ws.close();
    }
    expect(await balance(a1.address)).toBe(start);
    expect(await rpc('starknet_getNonce', { block_id: 'latest', contract_address: a0.address })).toBe('0x0');
    for (const h of [b1.block_hash, b2.block_hash]) {
      expect((await raw('starknet_getBlockWithTxHashes', { block_id: { block_hash: h } })).error?.code).toBe(24);
    }
    expect((await raw('starknet_getTransactionReceipt', { transaction_hash: t1.hash })).error?.code).toBe(29);
    expect(await rpc('starknet_blockNumber')).toBe(b1.block_number - 1);
    // the same transaction can be sent again: it lands in a new block with the first aborted number
    await rpc('starknet_addInvokeTransaction', { invoke_transaction: t1.tx });
    const again = await rpc('starknet_getTransactionReceipt', { transaction_hash: t1.hash });
    expect(again.block_number).toBe(b1.block_number);
    expect(await balance(a1.address)).toBe(start + 11n);
  });

  it('the abort survives a restart of the process (the data directory is rewritten)', async () => {
    const t1 = invokeV3(a0.address, transferCalldata(STRK, a1.address, 11n), 0n, a0.private_key);
    await rpc('starknet_addInvokeTransaction', { invoke_transaction: t1.tx });
    await rpc('devnet_abortBlocks', { starting_block_id: 'latest' });
    await dc.close();
    dc = await startDevchain({ port: 0, accounts: 2, dataDir: join(dir, 'chain') });
    expect(await rpc('starknet_blockNumber')).toBe(0);
    expect((await raw('starknet_getTransactionReceipt', { transaction_hash: t1.hash })).error?.code).toBe(29);
  });

  it('pre_confirmed mines the pending transactions into a block and aborts it; genesis, L1-accepted and unknown blocks are refused', async () => {
    const answer = await rpc('devnet_abortBlocks', { starting_block_id: 'pre_confirmed' });
    expect(answer.aborted).toHaveLength(1);
    expect(await rpc('starknet_blockNumber')).toBe(0);
    const genesis = await raw('devnet_abortBlocks', { starting_block_id: { block_number: 0 } });
    expect(genesis.error).toMatchObject({ code: -32600, message: 'The genesis block cannot be aborted' });
    await rpc('devnet_createBlock');
    await rpc('devnet_acceptOnL1', { starting_block_id: 'latest' });
    const l1 = await raw('devnet_abortBlocks', { starting_block_id: 'latest' });
    expect(l1.error?.code).toBe(-32600);
    expect(l1.error?.message).toMatch(/accepted on L1/);
    expect((await raw('devnet_abortBlocks', { starting_block_id: { block_number: 99 } })).error?.code).toBe(24);
    expect((await raw('devnet_abortBlocks', {})).error?.code).toBe(-32602);
    expect((await raw('devnet_abortBlocks', { starting_block_id: 'soon' })).error?.code).toBe(-32602);
  });
});

describe('devnet_acceptOnL1', () => {
  it('marks a block and those before it ACCEPTED_ON_L1: blocks, receipts, statuses and the l1_accepted tag', async () => {
    expect((await raw('starknet_getBlockWithTxHashes', { block_id: 'l1_accepted' })).error?.code).toBe(24);
    const t1 = invokeV3(a0.address, transferCalldata(STRK, a1.address, 1n), 0n, a0.private_key);
    await rpc('starknet_addInvokeTransaction', { invoke_transaction: t1.tx });
    const b1 = await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' });
    await rpc('devnet_createBlock');
    const genesis = await rpc('starknet_getBlockWithTxHashes', { block_id: { block_number: 0 } });
    const answer = await rpc('devnet_acceptOnL1', { starting_block_id: { block_hash: b1.block_hash } });
    expect(answer).toEqual({ accepted: [b1.block_hash, genesis.block_hash] });
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: { block_number: 1 } })).status).toBe(
      'ACCEPTED_ON_L1',
    );
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' })).status).toBe('ACCEPTED_ON_L2');
    expect((await rpc('starknet_getTransactionReceipt', { transaction_hash: t1.hash })).finality_status).toBe(
      'ACCEPTED_ON_L1',
    );
    expect((await rpc('starknet_getTransactionStatus', { transaction_hash: t1.hash })).finality_status).toBe(
      'ACCEPTED_ON_L1',
    );
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: 'l1_accepted' })).block_hash).toBe(b1.block_hash);
    // the next call accepts only what was not accepted yet
    expect(await rpc('devnet_acceptOnL1', { starting_block_id: 'latest' })).toEqual({
      accepted: [(await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' })).block_hash],
    });
    const twice = await raw('devnet_acceptOnL1', { starting_block_id: { block_number: 1 } });
    expect(twice.error).toMatchObject({ code: -32600, message: 'Block already accepted on L1' });
    const pending = await raw('devnet_acceptOnL1', { starting_block_id: 'pre_confirmed' });
    expect(pending.error).toMatchObject({ code: -32600, message: 'Pre-confirmed block cannot be accepted on L1' });
    expect((await raw('devnet_acceptOnL1', { starting_block_id: { block_number: 50 } })).error?.code).toBe(24);
    // kept by the data directory
    await dc.close();
    dc = await startDevchain({ port: 0, accounts: 2, dataDir: join(dir, 'chain') });
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: 'l1_accepted' })).block_number).toBe(2);
  });
});

describe('devnet_setGasPrice', () => {
  it('sets prices for the blocks after the one being built; generate_block mines it so they apply at once', async () => {
    const answer = await rpc('devnet_setGasPrice', { gas_price_fri: 7, l2_gas_price_fri: '0x5', generate_block: true });
    expect(answer).toEqual({
      gas_price_wei: 10 ** 9,
      data_gas_price_wei: 10 ** 9,
      l2_gas_price_wei: 10 ** 9,
      gas_price_fri: 7,
      data_gas_price_fri: 10 ** 9,
      l2_gas_price_fri: 5,
    });
    // the block mined now keeps the old prices; the pre-confirmed one and estimates have the new ones
    const mined = await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' });
    expect(mined.l1_gas_price.price_in_fri).toBe('0x3b9aca00');
    const pending = await rpc('starknet_getBlockWithTxHashes', { block_id: 'pre_confirmed' });
    expect(pending.l1_gas_price.price_in_fri).toBe('0x7');
    expect(pending.l2_gas_price.price_in_fri).toBe('0x5');
    const t = invokeV3(a0.address, transferCalldata(STRK, a1.address, 1n), 0n, a0.private_key);
    const [est] = await rpc('starknet_estimateFee', { request: [t.tx], simulation_flags: [], block_id: 'latest' });
    expect(est.l2_gas_price).toBe('0x5');
    expect(BigInt(est.overall_fee)).toBe(
      BigInt(est.l2_gas_consumed) * 5n + BigInt(est.l1_data_gas_consumed) * 10n ** 9n,
    );
    await rpc('starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    const receipt = await rpc('starknet_getTransactionReceipt', { transaction_hash: t.hash });
    expect(receipt.actual_fee.amount).toBe(est.overall_fee);
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: 'latest' })).l2_gas_price.price_in_fri).toBe('0x5');
    // without generate_block the block being built keeps its prices
    await rpc('devnet_setGasPrice', { l2_gas_price_fri: 9 });
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: 'pre_confirmed' })).l2_gas_price.price_in_fri).toBe(
      '0x5',
    );
    await rpc('devnet_createBlock');
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: 'pre_confirmed' })).l2_gas_price.price_in_fri).toBe(
      '0x9',
    );
    // the blocks keep their prices, and their hashes, across a restart of the process
    const before = await rpc('starknet_getBlockWithTxHashes', { block_id: { block_number: 2 } });
    await dc.close();
    dc = await startDevchain({ port: 0, accounts: 2, dataDir: join(dir, 'chain') });
    expect(await rpc('starknet_getBlockWithTxHashes', { block_id: { block_number: 2 } })).toEqual(before);
    expect((await rpc('starknet_getBlockWithTxHashes', { block_id: 'pre_confirmed' })).l2_gas_price.price_in_fri).toBe(
      '0x9',
    );
  });

  it('refuses zero, negative, non-integer and unknown params (-32602)', async () => {
    for (const params of [
      { gas_price_fri: 0 },
      { gas_price_fri: -1 },
      { gas_price_fri: 1.5 },
      { gas_price_fri: 'lots' },
      { generate_block: 'yes' },
      { gas_price: 5 },
    ]) {
      expect((await raw('devnet_setGasPrice', params)).error?.code, JSON.stringify(params)).toBe(-32602);
    }
  });
});
