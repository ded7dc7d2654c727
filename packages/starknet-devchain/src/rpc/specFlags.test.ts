import { num } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceSlot } from '../contracts/erc20.js';
import { type RunningDevchain, startDevchain } from '../startDevchain.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';
import { invokeV3, transferCalldata } from '../testing/signedTx.js';

// The spec 0.10 params the dev chain once took and ignored (response_flags, trace_flags,
// contract_addresses, RETURN_INITIAL_READS) and the methods it answered with -32601.
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
let dc: RunningDevchain;
let a0: { address: string; private_key: string };
let a1: { address: string; private_key: string };
let txHash: string;
let blockNumber: number;

beforeAll(async () => {
  dc = await startDevchain({ port: 0, accounts: 2 });
  [a0, a1] = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  const t = invokeV3(a0.address, transferCalldata(STRK, a1.address, 10n), 0n, a0.private_key);
  txHash = (await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx })).transaction_hash;
  blockNumber = (await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: txHash }))
    .block_number;
});

afterAll(async () => {
  await dc.close();
});

describe('spec 0.10 flags', () => {
  it('INCLUDE_PROOF_FACTS adds an empty proof_facts to INVOKE v3 transactions, and only when asked', async () => {
    const plain = await rpcResult(dc.rpcUrl, 'starknet_getTransactionByHash', { transaction_hash: txHash });
    expect(plain).not.toHaveProperty('proof_facts');
    const flagged = await rpcResult(dc.rpcUrl, 'starknet_getTransactionByHash', {
      transaction_hash: txHash,
      response_flags: ['INCLUDE_PROOF_FACTS'],
    });
    expect(flagged).toEqual({ ...plain, proof_facts: [] });
    const block = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxs', [
      { block_number: blockNumber },
      ['INCLUDE_PROOF_FACTS'],
    ]);
    expect(block.transactions.find((t: any) => t.transaction_hash === txHash).proof_facts).toEqual([]);
    const withReceipts = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithReceipts', {
      block_id: { block_number: blockNumber },
      response_flags: ['INCLUDE_PROOF_FACTS'],
    });
    expect(withReceipts.transactions[0].transaction.proof_facts).toEqual([]);
    const bad = await rawRpc(dc.rpcUrl, 'starknet_getTransactionByHash', {
      transaction_hash: txHash,
      response_flags: ['INCLUDE_EVERYTHING'],
    });
    expect(bad.error).toMatchObject({ code: -32602, data: expect.stringContaining('response_flags') });
  });

  it('INCLUDE_LAST_UPDATE_BLOCK gives the value and the block that last wrote the slot (0 when never)', async () => {
    const slot = num.toHex(balanceSlot(BigInt(a1.address)));
    const plain = await rpcResult(dc.rpcUrl, 'starknet_getStorageAt', {
      contract_address: STRK,
      key: slot,
      block_id: 'latest',
    });
    const flagged = await rpcResult(dc.rpcUrl, 'starknet_getStorageAt', {
      contract_address: STRK,
      key: slot,
      block_id: 'latest',
      response_flags: ['INCLUDE_LAST_UPDATE_BLOCK'],
    });
    expect(flagged).toEqual({ value: plain, last_update_block: blockNumber });
    // as of the block before the transfer, the slot was last written at genesis
    const before = await rpcResult(dc.rpcUrl, 'starknet_getStorageAt', {
      contract_address: STRK,
      key: slot,
      block_id: { block_number: blockNumber - 1 },
      response_flags: ['INCLUDE_LAST_UPDATE_BLOCK'],
    });
    expect(before.last_update_block).toBe(0);
    const never = await rpcResult(dc.rpcUrl, 'starknet_getStorageAt', {
      contract_address: STRK,
      key: '0x1234567',
      block_id: 'latest',
      response_flags: ['INCLUDE_LAST_UPDATE_BLOCK'],
    });
    expect(never).toEqual({ value: '0x0', last_update_block: 0 });
  });

  it('getStateUpdate with contract_addresses keeps only those contracts', async () => {
    const full = await rpcResult(dc.rpcUrl, 'starknet_getStateUpdate', { block_id: { block_number: blockNumber } });
    const addresses = full.state_diff.storage_diffs.map((d: any) => d.address);
    expect(addresses.length).toBeGreaterThan(0);
    const onlyStrk = await rpcResult(dc.rpcUrl, 'starknet_getStateUpdate', {
      block_id: { block_number: blockNumber },
      contract_addresses: [STRK],
    });
    expect(onlyStrk.state_diff.storage_diffs.map((d: any) => BigInt(d.address))).toEqual([BigInt(STRK)]);
    expect(onlyStrk.state_diff.nonces).toEqual([]);
    const onlySender = await rpcResult(dc.rpcUrl, 'starknet_getStateUpdate', {
      block_id: { block_number: blockNumber },
      contract_addresses: [a0.address],
    });
    expect(onlySender.state_diff.storage_diffs).toEqual([]);
    expect(onlySender.state_diff.nonces).toEqual([{ contract_address: num.toHex(a0.address), nonce: '0x1' }]);
  });

  it('RETURN_INITIAL_READS: traces with the values the block read first; simulations likewise', async () => {
    const plain = await rpcResult(dc.rpcUrl, 'starknet_traceBlockTransactions', {
      block_id: { block_number: blockNumber },
    });
    expect(Array.isArray(plain)).toBe(true);
    const flagged = await rpcResult(dc.rpcUrl, 'starknet_traceBlockTransactions', {
      block_id: { block_number: blockNumber },
      trace_flags: ['RETURN_INITIAL_READS'],
    });
    expect(flagged.traces).toEqual(plain);
    // the sender's nonce was 0 before the block, and the recipient's balance slot was read at its old value
    expect(flagged.initial_reads.nonces).toContainEqual({ contract_address: num.toHex(a0.address), nonce: '0x0' });
    const slot = num.toHex(balanceSlot(BigInt(a1.address)));
    const oldBalance = await rpcResult(dc.rpcUrl, 'starknet_getStorageAt', {
      contract_address: STRK,
      key: slot,
      block_id: { block_number: blockNumber - 1 },
    });
    expect(flagged.initial_reads.storage).toContainEqual({
      contract_address: num.toHex(STRK),
      key: slot,
      value: oldBalance,
    });

    const t = invokeV3(a0.address, transferCalldata(STRK, a1.address, 5n), 1n, a0.private_key);
    const sim = await rpcResult(dc.rpcUrl, 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [t.tx],
      simulation_flags: ['RETURN_INITIAL_READS'],
    });
    expect(sim.simulated_transactions).toHaveLength(1);
    expect(sim.initial_reads.nonces).toContainEqual({ contract_address: num.toHex(a0.address), nonce: '0x1' });
  });
});

describe('spec 0.10 methods the dev chain cannot serve answer the spec errors', () => {
  it('getStorageProof: 42 after checking the block (24 for an unknown one)', async () => {
    const r = await rawRpc(dc.rpcUrl, 'starknet_getStorageProof', { block_id: 'latest', contract_addresses: [STRK] });
    expect(r.error).toMatchObject({ code: 42 });
    const unknown = await rawRpc(dc.rpcUrl, 'starknet_getStorageProof', { block_id: { block_number: 99_999 } });
    expect(unknown.error?.code).toBe(24);
  });

  it('getCompiledCasm: 100 with a compilation_error for a declared class, 28 for an unknown one', async () => {
    const classHash = await rpcResult(dc.rpcUrl, 'starknet_getClassHashAt', {
      block_id: 'latest',
      contract_address: a0.address,
    });
    const r = await rawRpc(dc.rpcUrl, 'starknet_getCompiledCasm', { class_hash: classHash });
    expect(r.error).toMatchObject({ code: 100, data: { compilation_error: expect.stringContaining('CASM') } });
    const unknown = await rawRpc(dc.rpcUrl, 'starknet_getCompiledCasm', { class_hash: '0x123' });
    expect(unknown.error?.code).toBe(28);
  });

  it('getMessagesStatus: 29 for any L1 hash (the dev chain has no L1), -32602 for a malformed one', async () => {
    expect(
      (await rawRpc(dc.rpcUrl, 'starknet_getMessagesStatus', { transaction_hash: `0x${'ab'.repeat(32)}` })).error?.code,
    ).toBe(29);
    expect((await rawRpc(dc.rpcUrl, 'starknet_getMessagesStatus', { transaction_hash: 'nope' })).error?.code).toBe(
      -32602,
    );
  });
});
