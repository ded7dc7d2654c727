import { num } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceSlot } from '../../contracts/erc20.js';
import { type RunningDevchain, startDevchain } from '../../startDevchain.js';
import { rawRpc, rpcResult } from '../../testing/rpc.js';
import { invokeV3, transferCalldata } from '../../testing/signedTx.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
let dc: RunningDevchain;
let a0: { address: string; private_key: string };
let a1: { address: string; private_key: string };

beforeAll(async () => {
  dc = await startDevchain({ port: 0, accounts: 2 });
  [a0, a1] = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
});

afterAll(async () => {
  await dc.close();
});

describe('simulateTransactions and other reads', () => {
  it('simulates a sequence with traces and fee estimations equal to estimateFee, committing nothing', async () => {
    const t1 = invokeV3(a0.address, transferCalldata(STRK, a1.address, 10n), 0n, a0.private_key);
    const t2 = invokeV3(a0.address, transferCalldata(STRK, a1.address, 20n), 1n, a0.private_key);
    const sim = await rpcResult(dc.rpcUrl, 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [t1.tx, t2.tx],
      simulation_flags: [],
    });
    expect(sim).toHaveLength(2);
    expect(sim[1].transaction_trace.type).toBe('INVOKE');
    expect(sim[1].transaction_trace.execute_invocation.is_reverted).toBe(false);
    const est = await rpcResult(dc.rpcUrl, 'starknet_estimateFee', {
      request: [t1.tx, t2.tx],
      simulation_flags: [],
      block_id: 'latest',
    });
    expect(sim.map((s: any) => s.fee_estimation)).toEqual(est);
    const skipped = await rpcResult(dc.rpcUrl, 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [{ ...t1.tx, signature: [] }],
      simulation_flags: ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE'],
    });
    expect(skipped[0].fee_estimation.overall_fee).toBe(est[0].overall_fee);
    const unsigned = await rawRpc(dc.rpcUrl, 'starknet_simulateTransactions', {
      block_id: 'latest',
      transactions: [{ ...t1.tx, signature: [] }],
      simulation_flags: [],
    });
    expect(unsigned.error?.code).toBe(41);
    expect(await rpcResult(dc.rpcUrl, 'starknet_getNonce', { block_id: 'latest', contract_address: a0.address })).toBe(
      '0x0',
    );
  });

  it('getStorageAt reads the ERC20 balance slots; counts, indexes and misc methods', async () => {
    const t = invokeV3(a0.address, transferCalldata(STRK, a1.address, 10n), 0n, a0.private_key);
    await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    const slot = num.toHex(balanceSlot(BigInt(a1.address)));
    const low = await rpcResult(dc.rpcUrl, 'starknet_getStorageAt', {
      contract_address: STRK,
      key: slot,
      block_id: 'latest',
    });
    expect(BigInt(low)).toBe(10n ** 21n + 10n);
    const atGenesis = await rpcResult(dc.rpcUrl, 'starknet_getStorageAt', [STRK, slot, { block_number: 0 }]);
    expect(BigInt(atGenesis)).toBe(10n ** 21n);
    expect(await rpcResult(dc.rpcUrl, 'starknet_getBlockTransactionCount', { block_id: 'latest' })).toBe(1);
    expect(
      (await rpcResult(dc.rpcUrl, 'starknet_getTransactionByBlockIdAndIndex', { block_id: 'latest', index: 0 }))
        .transaction_hash,
    ).toBe(t.hash);
    expect(await rpcResult(dc.rpcUrl, 'starknet_syncing')).toBe(false);
    const su = await rpcResult(dc.rpcUrl, 'starknet_getStateUpdate', { block_id: 'latest' });
    expect(su.state_diff.nonces).toEqual([{ contract_address: a0.address, nonce: '0x1' }]);
    const block = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxs', { block_id: 'latest' });
    expect(su.old_root).not.toBe(su.new_root);
    expect(block.new_root).toBe(su.new_root);
    // an empty message is refused as bad params (the estimate itself is covered by the gateway's conformance test)
    expect(
      (await rawRpc(dc.rpcUrl, 'starknet_estimateMessageFee', { message: {}, block_id: 'latest' })).error?.code,
    ).toBe(-32602);
    expect((await rawRpc(dc.rpcUrl, 'starknet_getBlockWithTxs', { block_id: 'l1_accepted' })).error?.code).toBe(24);
    expect(
      (await rawRpc(dc.rpcUrl, 'starknet_getStorageAt', { contract_address: '0x5', key: '0x0', block_id: 'latest' }))
        .error?.code,
    ).toBe(20);
    expect((await rawRpc(dc.rpcUrl, 'starknet_getNonce', { block_id: 'latest' })).error?.code).toBe(-32602);
  });

  it('traceTransaction and traceBlockTransactions rebuild the call trees of stored transactions', async () => {
    const ok = invokeV3(a1.address, transferCalldata(STRK, a0.address, 1n), 0n, a1.private_key);
    await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: ok.tx });
    const trace = await rpcResult(dc.rpcUrl, 'starknet_traceTransaction', { transaction_hash: ok.hash });
    expect(trace.type).toBe('INVOKE');
    expect(trace.execute_invocation.contract_address).toBe(a1.address);
    // The account's __execute__ emits nothing itself; its call to STRK emits the Transfer, the fee transfer its own.
    expect(trace.execute_invocation.events).toEqual([]);
    expect(trace.execute_invocation.calls).toHaveLength(1);
    expect(trace.execute_invocation.calls[0]).toMatchObject({
      contract_address: STRK,
      caller_address: a1.address,
      entry_point_selector: num.toHex(BigInt('0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12e')),
      result: ['0x1'],
      events: [{ order: 0, data: [a1.address, a0.address, '0x1', '0x0'] }],
    });
    expect(trace.validate_invocation.entry_point_selector).toBe(
      num.toHex(BigInt('0x162da33a4585851fe8d3af3c2a9c60b557814e221e0d4f30ff0b2189d9c7775')),
    );
    expect(trace.fee_transfer_invocation.events).toHaveLength(1);
    expect(trace.fee_transfer_invocation.events[0].order).toBe(1);
    const bad = invokeV3(a1.address, transferCalldata(STRK, a0.address, 10n ** 30n), 1n, a1.private_key);
    await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: bad.tx });
    const reverted = await rpcResult(dc.rpcUrl, 'starknet_traceTransaction', { transaction_hash: bad.hash });
    expect(reverted.execute_invocation.revert_reason).toMatch(/insufficient balance/);
    const block = await rpcResult(dc.rpcUrl, 'starknet_traceBlockTransactions', { block_id: 'latest' });
    expect(block).toEqual([{ transaction_hash: bad.hash, trace_root: reverted }]);
    expect((await rawRpc(dc.rpcUrl, 'starknet_traceTransaction', { transaction_hash: '0x1' })).error?.code).toBe(29);
  });
});
