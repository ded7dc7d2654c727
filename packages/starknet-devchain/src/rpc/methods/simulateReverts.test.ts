// Simulations of transactions that revert (a trace with the revert reason and the fee, not error 41), and fee
// estimates that leave the tip out (as starknet-devnet's).
import { ec, hash, num } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../../startDevchain.js';
import { rawRpc, rpcResult } from '../../testing/rpc.js';
import { deployAccountV3, invokeV3, transferCalldata } from '../../testing/signedTx.js';

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

/** A transfer call with its amount's high word left out: the token's `transfer` runs out of calldata. */
const shortTransfer = () =>
  transferCalldata(STRK, a1.address, 5n)
    .slice(0, -1)
    .map((x, i) => (i === 3 ? '0x2' : x));
const simulate = (transactions: unknown[], simulation_flags: string[] = []) =>
  rawRpc(dc.rpcUrl, 'starknet_simulateTransactions', { block_id: 'latest', transactions, simulation_flags });

describe('simulateTransactions of a transaction that reverts', () => {
  it('INVOKE with too few calldata values for transfer: a trace whose execute_invocation has the revert reason, and its fee', async () => {
    const bad = invokeV3(a0.address, shortTransfer(), 0n, a0.private_key);
    // it used to answer error 41 (TRANSACTION_EXECUTION_ERROR)
    const answer = await simulate([bad.tx]);
    expect(answer.error).toBeUndefined();
    const [sim] = answer.result;
    expect(sim.transaction_trace.type).toBe('INVOKE');
    expect(sim.transaction_trace.execute_invocation.revert_reason).toMatch(/Transaction execution has failed/);
    expect(sim.transaction_trace.execute_invocation.contract_address).toBeUndefined();
    expect(sim.transaction_trace.validate_invocation.contract_address).toBe(a0.address);
    expect(sim.transaction_trace.fee_transfer_invocation.contract_address).toBe(STRK);
    expect(BigInt(sim.fee_estimation.overall_fee)).toBeGreaterThan(0n);
    // the same transaction sent is reverted with the same reason and charged that fee
    await rpcResult(dc.rpcUrl, 'devnet_restart');
    const sent = await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: bad.tx });
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', sent);
    expect(receipt.execution_status).toBe('REVERTED');
    expect(receipt.revert_reason).toBe(sim.transaction_trace.execute_invocation.revert_reason);
    expect(receipt.actual_fee.amount).toBe(sim.fee_estimation.overall_fee);
    await rpcResult(dc.rpcUrl, 'devnet_restart');
  });

  it('honours SKIP_VALIDATE (no signature, no validate_invocation) and SKIP_FEE_CHARGE (no fee transfer)', async () => {
    const bad = invokeV3(a0.address, shortTransfer(), 0n, a0.private_key);
    const unsigned = { ...bad.tx, signature: [] };
    const skipped = await simulate([unsigned], ['SKIP_VALIDATE', 'SKIP_FEE_CHARGE']);
    expect(skipped.error).toBeUndefined();
    const trace = skipped.result[0].transaction_trace;
    expect(trace.execute_invocation.revert_reason).toMatch(/Transaction execution has failed/);
    expect(trace.validate_invocation).toBeUndefined();
    expect(trace.fee_transfer_invocation).toBeUndefined();
    // validation failing stays an error: the unsigned transaction without SKIP_VALIDATE
    const refused = await simulate([unsigned]);
    expect(refused.error?.code).toBe(41);
    expect((refused.error?.data as { transaction_index?: number } | undefined)?.transaction_index).toBe(0);
  });

  it('a reverted transaction still uses its nonce: the next one of the sequence runs after it', async () => {
    const bad = invokeV3(a0.address, shortTransfer(), 0n, a0.private_key);
    const next = invokeV3(a0.address, transferCalldata(STRK, a1.address, 1n), 1n, a0.private_key);
    const answer = await simulate([bad.tx, next.tx]);
    expect(answer.error).toBeUndefined();
    expect(answer.result[0].transaction_trace.execute_invocation.revert_reason).toBeDefined();
    expect(answer.result[1].transaction_trace.execute_invocation.is_reverted).toBe(false);
  });

  it('estimateFee of a reverting transaction is still error 41 (only simulations report reverts)', async () => {
    const bad = invokeV3(a0.address, shortTransfer(), 0n, a0.private_key);
    const answer = await rawRpc(dc.rpcUrl, 'starknet_estimateFee', {
      request: [bad.tx],
      simulation_flags: [],
      block_id: 'latest',
    });
    expect(answer.error?.code).toBe(41);
  });

  it('DEPLOY_ACCOUNT whose constructor fails: a trace whose constructor_invocation is reverted, with the fee', async () => {
    const classHash = await rpcResult(dc.rpcUrl, 'starknet_getClassHashAt', {
      block_id: 'latest',
      contract_address: a0.address,
    });
    const key = '0x2222';
    // public key 0: the account's constructor fails ('Account: invalid public key')
    const deploy = deployAccountV3(classHash, ['0x0'], '0x51', key);
    await rpcResult(dc.rpcUrl, 'devnet_mint', { address: deploy.address, amount: 10 ** 20, unit: 'FRI' });
    const answer = await simulate([deploy.tx]);
    expect(answer.error).toBeUndefined();
    const [sim] = answer.result;
    expect(sim.transaction_trace.type).toBe('DEPLOY_ACCOUNT');
    expect(sim.transaction_trace.constructor_invocation).toMatchObject({
      contract_address: num.toHex(deploy.address),
      entry_point_type: 'CONSTRUCTOR',
      is_reverted: true,
    });
    expect(sim.transaction_trace.validate_invocation).toBeUndefined();
    expect(BigInt(sim.fee_estimation.overall_fee)).toBeGreaterThan(0n);
    const free = await simulate([deploy.tx], ['SKIP_FEE_CHARGE']);
    expect(free.result[0].transaction_trace.fee_transfer_invocation).toBeUndefined();
    // nothing was deployed, and sending it is still refused (such a transaction cannot be included)
    const sent = await rawRpc(dc.rpcUrl, 'starknet_addDeployAccountTransaction', {
      deploy_account_transaction: deploy.tx,
    });
    expect(sent.error?.code).toBe(55);
    expect(
      (await rawRpc(dc.rpcUrl, 'starknet_getClassHashAt', { block_id: 'latest', contract_address: deploy.address }))
        .error?.code,
    ).toBe(20);
    // a good constructor simulates as before
    const good = deployAccountV3(classHash, [ec.starkCurve.getStarkKey(key)], '0x51', key);
    await rpcResult(dc.rpcUrl, 'devnet_mint', { address: good.address, amount: 10 ** 20, unit: 'FRI' });
    const ok = await simulate([good.tx]);
    expect(ok.result[0].transaction_trace.constructor_invocation.is_reverted).toBe(false);
    expect(ok.result[0].transaction_trace.validate_invocation.entry_point_selector).toBe(
      hash.getSelectorFromName('__validate_deploy__'),
    );
  });
});

describe('fee estimates leave the tip out', () => {
  it('the same transaction with tip 0 and a large tip: equal gas, prices and overall fee', async () => {
    const call = transferCalldata(STRK, a1.address, 3n);
    const plain = invokeV3(a0.address, call, 0n, a0.private_key, { tip: 0n });
    const tipped = invokeV3(a0.address, call, 0n, a0.private_key, { tip: 10n ** 10n });
    const [e0, e1] = await Promise.all(
      [plain, tipped].map((t) =>
        rpcResult(dc.rpcUrl, 'starknet_estimateFee', { request: [t.tx], simulation_flags: [], block_id: 'latest' }),
      ),
    );
    // it used to add the tip to l2_gas_price (and so to overall_fee)
    expect(e1).toEqual(e0);
    const l2Price = BigInt(e0[0].l2_gas_price);
    expect(l2Price).toBe(10n ** 9n);
    const sim = await simulate([tipped.tx]);
    expect(sim.result[0].fee_estimation).toEqual(e0[0]);
    // the tip is charged when the transaction runs: what it pays is the estimate plus l2 gas x tip
    const sent = await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: tipped.tx });
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', sent);
    expect(BigInt(receipt.actual_fee.amount)).toBe(
      BigInt(e0[0].overall_fee) + BigInt(e0[0].l2_gas_consumed) * 10n ** 10n,
    );
  });
});
