import { type Address, createWalletClient, type Hex, http, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestGateway, type TestGateway, waitForReceipt } from '../test-support/startTestGateway.js';
import { STORAGE_CONTRACT_BYTECODE } from '../test-support/storageContract.js';
import { createTestKey, type TestKey } from '../test-support/testKeys.js';

// Issue 20, item 7: a key allowed one contract could read any other through eth_call's state
// overrides (code overridden at the allowed address that reads another account) and block
// overrides. Every address a call names, overrides included, is now checked; code and storage
// overrides (which can reach any contract) are refused for a key with a contract allowlist.

// anvil's well-known first dev account
const deployer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const SECRET_BALANCE = 1234n;

let t: TestGateway;
/** The contract the restricted key is allowed. */
let allowed: Address;
/** Another contract, holding SECRET_BALANCE wei: the restricted key must not learn it. */
let secret: Address;
/** Allowed `allowed` only. */
let restricted: TestKey;
/** No allowlist: the same calls work for it. */
let open: TestKey;

beforeAll(async () => {
  t = await startTestGateway({ extra: { cache: { enabled: false } } });
  const wallet = createWalletClient({ account: deployer, chain: foundry, transport: http(t.rpcUrl) });
  const deploy = async () => {
    const hash = await wallet.deployContract({ abi: [], bytecode: STORAGE_CONTRACT_BYTECODE });
    return (await waitForReceipt(t.rpcUrl, hash)).contractAddress as Address;
  };
  allowed = await deploy();
  secret = await deploy();
  await waitForReceipt(t.rpcUrl, await wallet.sendTransaction({ to: secret, value: SECRET_BALANCE }));
  restricted = await createTestKey(t.gw, { name: 'restricted', settings: { allowedContracts: [allowed] } });
  open = await createTestKey(t.gw, { name: 'open' });
});
afterAll(async () => {
  await t?.stop();
});

const url = (key: TestKey) => `${t.gw.networks['eth-devnet']!.http}/v3/${key.key}`;
const call = (method: string, params: unknown[], id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params });
/** Runtime code that returns BALANCE(account) as one 32-byte word. */
const balanceReader = (account: Address): Hex => `0x73${account.slice(2)}3160005260206000f3`;
const REFUSED = { code: -32002, message: 'rejected due to project ID settings', data: { reason: 'contract' } };

async function expectRefused(params: unknown[], method = 'eth_call') {
  const r = await postJson(url(restricted), call(method, params));
  expect(r.status, JSON.stringify(params)).toBe(403);
  expect(r.json.error).toEqual(REFUSED);
}
async function answered(key: TestKey, params: unknown[], method = 'eth_call') {
  const r = await postJson(url(key), call(method, params));
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  expect(r.json.error, JSON.stringify(params)).toBeUndefined();
  return r.json.result;
}

describe('contract allowlist and eth_call overrides (issue 20, item 7)', () => {
  it('overridden code at the allowed address reading another account: answered for an open key, refused for the restricted one', async () => {
    const params = [{ to: allowed, data: '0x' }, 'latest', { [allowed]: { code: balanceReader(secret) } }];
    // the override really runs (anvil returns the other account's balance) …
    expect(BigInt(await answered(open, params))).toBe(SECRET_BALANCE);
    // … and the restricted key cannot do it any more
    await expectRefused(params);
    await expectRefused([{ to: allowed, data: '0x', gas: '0x100000' }, 'latest', params[2]], 'eth_estimateGas');
    // without overrides it may still call its contract
    expect(await answered(restricted, [{ to: allowed, data: '0x' }, 'latest'])).toBe('0x');
    expect(await answered(restricted, [{ to: allowed, data: '0x' }, 'latest', null, null])).toBe('0x');
  });

  it('balance and nonce overrides must name allowed accounts; storage overrides are refused', async () => {
    const base = { to: allowed, data: '0x' };
    const big = toHex(10n ** 24n);
    await expectRefused([base, 'latest', { [secret]: { balance: big } }]);
    await expectRefused([base, 'latest', { [deployer.address]: { nonce: '0x7' } }]);
    expect(await answered(restricted, [base, 'latest', { [allowed]: { balance: big, nonce: '0x7' } }])).toBe('0x');
    // storage can point a proxy (or any stored address) elsewhere
    const slot = `0x${'0'.repeat(64)}`;
    const diff = { [allowed]: { stateDiff: { [slot]: `0x${'0'.repeat(62)}01` } } };
    expect(await answered(open, [base, 'latest', diff])).toBe('0x');
    await expectRefused([base, 'latest', diff]);
    await expectRefused([base, 'latest', { [allowed]: { state: { [slot]: slot } } }]);
    await expectRefused([base, 'latest', { [secret]: { balance: big } }], 'eth_estimateGas');
  });

  it('block overrides: a fee recipient must be allowed; fields that name no address pass', async () => {
    const base = { to: allowed, data: '0x' };
    expect(await answered(restricted, [base, 'latest', null, { number: '0x100', time: '0x70000000' }])).toBe('0x');
    expect(await answered(open, [base, 'latest', null, { feeRecipient: secret }])).toBe('0x');
    await expectRefused([base, 'latest', null, { feeRecipient: secret }]);
    await expectRefused([base, 'latest', null, { coinbase: secret }]);
    await expectRefused([base, 'latest', {}, { withdrawals: [] }]);
  });

  it('access lists, paying senders and creations name what they touch', async () => {
    await expectRefused([{ to: allowed, data: '0x', accessList: [{ address: secret, storageKeys: [] }] }, 'latest']);
    await expectRefused(
      [{ to: allowed, data: '0x', accessList: [{ address: secret, storageKeys: [] }] }, 'latest'],
      'eth_createAccessList',
    );
    // a sender whose balance the node must read (value), against one it need not
    await expectRefused([{ from: secret, to: allowed, value: '0x1' }, 'latest']);
    expect(await answered(restricted, [{ from: secret, to: allowed, data: '0x' }, 'latest'])).toBe('0x');
    // init code runs anything
    await expectRefused([{ data: balanceReader(secret) }, 'latest']);
  });

  it('dev-chain methods that rewrite any account (anvil_setCode …) are refused for the restricted key', async () => {
    const scratch = `0x${'ab'.repeat(20)}`;
    await expectRefused([allowed, balanceReader(secret)], 'anvil_setCode');
    await expectRefused([allowed, `0x${'0'.repeat(64)}`, `0x${'0'.repeat(64)}`], 'anvil_setStorageAt');
    expect(await answered(open, [scratch, '0x00'], 'anvil_setCode')).toBe(null);
    // the allowed contract's code is untouched
    expect(await answered(restricted, [allowed, 'latest'], 'eth_getCode')).not.toBe(balanceReader(secret));
  });

  it('eth_simulateV1 is not served (-32601) for either key, so it cannot carry overrides', async () => {
    const payload = { blockStateCalls: [{ stateOverrides: { [allowed]: { code: balanceReader(secret) } } }] };
    for (const key of [restricted, open]) {
      const r = await postJson(url(key), call('eth_simulateV1', [payload, 'latest']));
      expect(r.json.error.code).toBe(-32601);
    }
  });

  it('a batch refuses only the item with the override', async () => {
    const r = await postJson(url(restricted), [
      call('eth_call', [{ to: allowed, data: '0x' }, 'latest'], 1),
      call('eth_call', [{ to: allowed, data: '0x' }, 'latest', { [allowed]: { code: balanceReader(secret) } }], 2),
    ]);
    expect(r.status).toBe(200);
    expect(r.json[0].result).toBe('0x');
    expect(r.json[1].error).toEqual(REFUSED);
  });

  it('over WebSocket too: the same override is refused for the restricted key, answered for the open one', async () => {
    const ask = async (key: TestKey, params: unknown[]) => {
      const ws = new WebSocket(`${t.gw.networks['eth-devnet']!.ws}/ws/v3/${key.key}`);
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const answer = new Promise<any>((resolve) => ws.once('message', (m) => resolve(JSON.parse(String(m)))));
      ws.send(JSON.stringify(call('eth_call', params, 7)));
      const reply = await answer;
      ws.close();
      return reply;
    };
    const params = [{ to: allowed, data: '0x' }, 'latest', { [allowed]: { code: balanceReader(secret) } }];
    expect(BigInt((await ask(open, params)).result)).toBe(SECRET_BALANCE);
    expect((await ask(restricted, params)).error).toEqual(REFUSED);
  });
});
