import { invokeV3, rpcResult, transferCalldata } from '@nodegate/starknet-devchain/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../test-support/startTestGateway.js';
import { type StarknetTestGateway, startStarknetTestGateway } from '../test-support/startStarknetTestGateway.js';
import { createTestKey, type TestKey } from '../test-support/testKeys.js';

// Issue 20, item 7 (Starknet): starknet_estimateFee and starknet_simulateTransactions named no
// contract, so a key allowed one contract could simulate calls to any other. A simulated INVOKE
// now names its sender (whose account code runs) and its multicall's targets; a DECLARE or a
// DEPLOY_ACCOUNT brings code and is refused for a key with a contract allowlist.

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const ETH = '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

let t: StarknetTestGateway;
let accounts: Array<{ address: string; private_key: string; public_key: string }>;
/** Allowed the first account and STRK only. */
let restricted: TestKey;
let open: TestKey;

beforeAll(async () => {
  t = await startStarknetTestGateway();
  accounts = await rpcResult(t.directUrl, 'devnet_getPredeployedAccounts');
  restricted = await createTestKey(t.gw, { settings: { allowedContracts: [accounts[0]!.address, STRK] } });
  open = await createTestKey(t.gw);
});
afterAll(async () => {
  await t?.stop();
});

const url = (key: TestKey) => `${t.gw.networks['starknet-sepolia']!.http}/v3/${key.key}`;
const REFUSED = { code: -32002, message: 'rejected due to project ID settings', data: { reason: 'contract' } };
const transfer = (from: number, token: string) =>
  invokeV3(accounts[from]!.address, transferCalldata(token, accounts[1]!.address, 5n), 0n, accounts[from]!.private_key)
    .tx;
const simulate = (txs: unknown[], prefix = 'starknet') => ({
  jsonrpc: '2.0',
  id: 1,
  method: `${prefix}_simulateTransactions`,
  params: { block_id: 'latest', transactions: txs, simulation_flags: ['SKIP_VALIDATE'] },
});
const estimate = (txs: unknown[]) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'starknet_estimateFee',
  params: { request: txs, simulation_flags: ['SKIP_VALIDATE'], block_id: 'latest' },
});

async function expectRefused(body: unknown) {
  const r = await postJson(url(restricted), body);
  expect(r.status).toBe(403);
  expect(r.json.error).toEqual(REFUSED);
}

describe('contract allowlist and Starknet simulations (issue 20, item 7)', () => {
  it('a simulated call to a contract not allowed is refused; the same simulation runs for an open key', async () => {
    const toEth = transfer(0, ETH);
    const ran = await postJson(url(open), simulate([toEth]));
    expect(ran.json.result[0].transaction_trace.execute_invocation.is_reverted).toBe(false);
    await expectRefused(simulate([toEth]));
    await expectRefused(simulate([toEth], 'stk'));
    await expectRefused(estimate([toEth]));
    // one refused transaction among allowed ones refuses the call
    await expectRefused(simulate([transfer(0, STRK), toEth]));
  });

  it('a simulation from an account not allowed is refused (its code runs)', async () => {
    const fromOther = transfer(2, STRK);
    expect((await postJson(url(open), estimate([fromOther]))).json.result).toHaveLength(1);
    await expectRefused(estimate([fromOther]));
  });

  it('an allowed account calling an allowed contract simulates and estimates', async () => {
    const ok = transfer(0, STRK);
    const sim = await postJson(url(restricted), simulate([ok]));
    expect(sim.status).toBe(200);
    expect(sim.json.result[0].transaction_trace.execute_invocation.is_reverted).toBe(false);
    const fee = await postJson(url(restricted), estimate([ok]));
    expect(fee.json.result[0].overall_fee).toMatch(/^0x[0-9a-f]+$/);
  });

  it('DEPLOY_ACCOUNT and DECLARE bring code: refused for the restricted key', async () => {
    const deploy = {
      type: 'DEPLOY_ACCOUNT',
      version: '0x3',
      class_hash: '0x1',
      contract_address_salt: '0x2',
      constructor_calldata: [accounts[0]!.public_key],
      signature: [],
      nonce: '0x0',
      resource_bounds: {
        l1_gas: { max_amount: '0x0', max_price_per_unit: '0x1' },
        l2_gas: { max_amount: '0x1', max_price_per_unit: '0x1' },
        l1_data_gas: { max_amount: '0x1', max_price_per_unit: '0x1' },
      },
      tip: '0x0',
      paymaster_data: [],
      nonce_data_availability_mode: 'L1',
      fee_data_availability_mode: 'L1',
    };
    await expectRefused(simulate([deploy]));
    // a DECLARE with the fields the spec requires (a missing one is -32602 before any allowlist)
    const declare = {
      ...deploy,
      type: 'DECLARE',
      sender_address: accounts[0]!.address,
      compiled_class_hash: '0x1',
      contract_class: {},
      account_deployment_data: [],
    };
    await expectRefused(estimate([declare]));
  });

  it('estimateMessageFee names the L2 contract the message calls', async () => {
    const message = (to: string) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'starknet_estimateMessageFee',
      params: {
        message: { from_address: `0x${'11'.repeat(20)}`, to_address: to, entry_point_selector: '0x1', payload: [] },
        block_id: 'latest',
      },
    });
    await expectRefused(message(ETH));
    // allowed: it reaches the dev chain (whatever the dev chain answers, it is not the allowlist's refusal)
    const r = await postJson(url(restricted), message(STRK));
    expect(r.json.error?.code).not.toBe(-32002);
  });
});
