import { bounds3, invokeV3, transferCalldata } from '@nodegate/starknet-devchain/testing';
import { Account, CallData, config, RpcProvider, uint256 } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../test-support/startTestGateway.js';
import { type StarknetTestGateway, startStarknetTestGateway } from '../../test-support/startStarknetTestGateway.js';
import { createTestKey, type TestKey } from '../../test-support/testKeys.js';

// Issue 24 through the gateway, as a starknet.js user meets it: the simulation of a reverting transaction, fee
// estimates without the tip, and the devnet tools (impersonation, aborting blocks, acceptance on L1, gas prices):
// each on the dev network with starknet.js where it has a call (raw JSON-RPC for the devnet_* methods, which
// starknet.js has none of), refused with -32602 on bad params before the dev chain, refused on a non-dev network,
// and refused to a key with a contract allowlist (they reach every account).
config.set('logLevel', 'ERROR');
const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

let t: StarknetTestGateway;
let provider: RpcProvider;
let alice: Account;
let bob: { address: string; private_key: string };
let restricted: TestKey;

async function rpc(url: string, method: string, params: unknown = {}): Promise<any> {
  return (await postJson(url, { jsonrpc: '2.0', id: 1, method, params })).json;
}
const dev = (method: string, params: unknown = {}) => rpc(t.rpcUrl, method, params);
const transferCall = (amount: bigint) => ({
  contractAddress: STRK,
  entrypoint: 'transfer',
  calldata: CallData.compile({ recipient: bob.address, amount: uint256.bnToUint256(amount) }),
});
const strkOf = async (address: string) =>
  BigInt((await dev('devnet_getAccountBalance', { address, unit: 'FRI', block_id: 'latest' })).result.amount);

beforeAll(async () => {
  t = await startStarknetTestGateway();
  provider = await RpcProvider.create({ nodeUrl: t.rpcUrl });
  const accounts = (await dev('devnet_getPredeployedAccounts')).result;
  alice = new Account({ provider, address: accounts[0].address, signer: accounts[0].private_key });
  bob = accounts[1];
  restricted = await createTestKey(t.gw, { settings: { allowedContracts: [alice.address, STRK] } });
});

afterAll(async () => {
  await t?.stop();
});

describe('defects, through the gateway with starknet.js', () => {
  it('simulateTransaction of an INVOKE that reverts: the trace with the revert reason and the fee (was error 41)', async () => {
    // transfer with too few calldata values: the token runs out of calldata
    const short = { contractAddress: STRK, entrypoint: 'transfer', calldata: [bob.address, '0x5'] };
    const { simulated_transactions } = await alice.simulateTransaction([{ type: 'INVOKE', payload: short }], {
      skipValidate: true,
      resourceBounds: {
        l1_gas: { max_amount: 0n, max_price_per_unit: 10n ** 10n },
        l2_gas: { max_amount: 10n ** 7n, max_price_per_unit: 10n ** 10n },
        l1_data_gas: { max_amount: 10n ** 4n, max_price_per_unit: 10n ** 10n },
      },
    });
    const [sim] = simulated_transactions;
    const trace = sim!.transaction_trace as any;
    expect(trace.execute_invocation.revert_reason).toMatch(/Transaction execution has failed/);
    expect(BigInt(sim!.overall_fee)).toBeGreaterThan(0n);
    expect(trace.validate_invocation).toBeUndefined();
  });

  it('estimateInvokeFee with tip 0 and with a large tip: the same gas and prices (the tip is left out)', async () => {
    const call = transferCall(3n);
    const plain = await alice.estimateInvokeFee(call, { tip: 0n });
    const tipped = await alice.estimateInvokeFee(call, { tip: 10n ** 10n });
    expect(tipped.resourceBounds).toEqual(plain.resourceBounds);
    expect(tipped.overall_fee).toBe(plain.overall_fee);
    expect(BigInt(plain.resourceBounds.l2_gas.max_price_per_unit)).toBeGreaterThan(0n);
  });
});

describe('impersonation', () => {
  it('an impersonated account sends with a wrong key; stopping it (and auto-impersonation) behave as devnet', async () => {
    const intruder = new Account({ provider, address: alice.address, signer: '0x1234567' });
    const refusedBefore = await intruder.execute(transferCall(5n)).then(
      () => 'sent',
      (e: Error) => e.message,
    );
    expect(refusedBefore).toMatch(/55|validat/i);
    expect(await dev('devnet_impersonateAccount', { account_address: alice.address })).toMatchObject({ result: {} });
    const before = await strkOf(bob.address);
    const sent = await intruder.execute(transferCall(5n));
    expect((await provider.waitForTransaction(sent.transaction_hash, { retryInterval: 50 })).isSuccess()).toBe(true);
    expect(await strkOf(bob.address)).toBe(before + 5n);
    await dev('devnet_stopImpersonateAccount', { account_address: alice.address });
    await expect(intruder.execute(transferCall(5n))).rejects.toThrow();
    await dev('devnet_autoImpersonate');
    const auto = await intruder.execute(transferCall(1n));
    expect((await provider.waitForTransaction(auto.transaction_hash, { retryInterval: 50 })).isSuccess()).toBe(true);
    await dev('devnet_stopAutoImpersonate');
    await expect(intruder.execute(transferCall(1n))).rejects.toThrow();
  });

  it('bad params are refused by the gateway (-32602), before the dev chain', async () => {
    for (const [method, params, at] of [
      ['devnet_impersonateAccount', {}, /account_address: expected a value/],
      ['devnet_impersonateAccount', { account_address: 'alice' }, /account_address: expected a felt/],
      ['devnet_stopImpersonateAccount', { account_address: alice.address, force: true }, /no param "force"/],
      ['devnet_autoImpersonate', { all: true }, /no param "all" \(it takes none\)/],
      ['devnet_stopAutoImpersonate', [1], /takes at most 0 params/],
    ] as const) {
      const answer = await dev(method, params);
      expect(answer.error?.code, method).toBe(-32602);
      expect(answer.error?.message, method).toMatch(at);
    }
  });
});

describe('blocks', () => {
  it('devnet_abortBlocks: state, transactions and hashes of the aborted blocks are gone', async () => {
    const start = await strkOf(bob.address);
    const sent = await alice.execute(transferCall(17n));
    await provider.waitForTransaction(sent.transaction_hash, { retryInterval: 50 });
    const block = await provider.getBlock('latest');
    expect(await strkOf(bob.address)).toBe(start + 17n);
    const answer = await dev('devnet_abortBlocks', { starting_block_id: { block_number: block.block_number } });
    expect(answer.result).toEqual({ aborted: [block.block_hash] });
    expect(await strkOf(bob.address)).toBe(start);
    await expect(provider.getBlock(block.block_hash)).rejects.toThrow(/24|Block not found/i);
    await expect(provider.getTransactionReceipt(sent.transaction_hash)).rejects.toThrow(/29|not found/i);
    expect(await provider.getBlockNumber()).toBe(block.block_number - 1);
  });

  it('devnet_acceptOnL1: blocks and receipts become ACCEPTED_ON_L1 up to the block', async () => {
    const sent = await alice.execute(transferCall(2n));
    const receipt = await provider.waitForTransaction(sent.transaction_hash, { retryInterval: 50 });
    const number = (receipt as any).block_number as number;
    const answer = await dev('devnet_acceptOnL1', { starting_block_id: { block_number: number } });
    expect(answer.result.accepted[0]).toBe((await provider.getBlock(number)).block_hash);
    expect((await provider.getBlock(number)).status).toBe('ACCEPTED_ON_L1');
    expect((await provider.getTransactionStatus(sent.transaction_hash)).finality_status).toBe('ACCEPTED_ON_L1');
    expect((await provider.getBlock('l1_accepted' as never)).block_number).toBe(number);
    const again = await dev('devnet_acceptOnL1', { starting_block_id: { block_number: number } });
    expect(again.error).toMatchObject({ code: -32600, message: 'Block already accepted on L1' });
  });

  it('devnet_setGasPrice: the next blocks and estimates use the new prices', async () => {
    const answer = await dev('devnet_setGasPrice', { l2_gas_price_fri: 3_000_000_000, generate_block: true });
    expect(answer.result.l2_gas_price_fri).toBe(3_000_000_000);
    const estimate = await alice.estimateInvokeFee(transferCall(1n), { tip: 0n });
    // starknet.js asks for a margin above the price it is given: at least the new price
    expect(BigInt(estimate.resourceBounds.l2_gas.max_price_per_unit)).toBeGreaterThanOrEqual(3_000_000_000n);
    const pending = await provider.getBlock('pre_confirmed' as never);
    expect(BigInt((pending as any).l2_gas_price.price_in_fri)).toBe(3_000_000_000n);
  });

  it('bad params are refused by the gateway (-32602), before the dev chain', async () => {
    for (const [method, params, at] of [
      ['devnet_abortBlocks', {}, /starting_block_id: expected a value/],
      ['devnet_abortBlocks', { starting_block_id: 'soon' }, /starting_block_id: expected a block id/],
      ['devnet_acceptOnL1', { starting_block_id: { block_number: -1 } }, /starting_block_id.block_number/],
      ['devnet_setGasPrice', { l2_gas_price_fri: 0 }, /l2_gas_price_fri: expected a positive integer/],
      ['devnet_setGasPrice', { generate_block: 'yes' }, /generate_block: expected a boolean/],
      ['devnet_setGasPrice', { gas_price: 1 }, /no param "gas_price"/],
    ] as const) {
      const answer = await dev(method, params);
      expect(answer.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
      expect(answer.error?.message, method).toMatch(at);
    }
  });
});

describe('refusals', () => {
  const TOOLS: [string, unknown][] = [
    ['devnet_impersonateAccount', { account_address: '0x1' }],
    ['devnet_stopImpersonateAccount', { account_address: '0x1' }],
    ['devnet_autoImpersonate', {}],
    ['devnet_stopAutoImpersonate', {}],
    ['devnet_abortBlocks', { starting_block_id: 'latest' }],
    ['devnet_acceptOnL1', { starting_block_id: 'latest' }],
    ['devnet_setGasPrice', { l2_gas_price_fri: 1 }],
  ];

  it('every devnet tool is refused on a network that is not a dev network (-32601)', async () => {
    for (const [method, params] of TOOLS) {
      const answer = await rpc(t.prodRpcUrl, method, params);
      expect(answer.error?.code, method).toBe(-32601);
      expect(answer.error?.message, method).toMatch(/only available on dev networks/);
    }
  });

  it('a key with a contract allowlist is refused every devnet tool (-32002), a key without is not', async () => {
    const url = `${t.gw.networks['starknet-devnet']!.http}/v3/${restricted.key}`;
    for (const [method, params] of TOOLS) {
      const answer = await rpc(url, method, params);
      expect(answer.error?.code, method).toBe(-32002);
    }
    // reading the dev chain's configuration names no contract: allowed
    expect((await rpc(url, 'devnet_getConfig')).error).toBeUndefined();
    expect((await dev('devnet_stopAutoImpersonate')).error).toBeUndefined();
  });

  it('without impersonation, a transfer signed with a wrong key is still refused by validation (55)', async () => {
    const nonce = BigInt(await alice.getNonce());
    const bounds = bounds3(5_000_000n, 10n ** 10n);
    const tx = invokeV3(alice.address, transferCalldata(STRK, bob.address, 1n), nonce, '0x42', { bounds }).tx;
    const answer = await dev('starknet_addInvokeTransaction', { invoke_transaction: tx });
    expect(answer.error?.code).toBe(55);
  });
});
