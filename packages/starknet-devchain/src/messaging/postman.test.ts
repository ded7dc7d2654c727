/**
 * L1 ↔ L2 messaging on the dev chain with a real anvil as L1: the messaging contract deployed by devnet_postmanLoad,
 * messages sent on L1 by an anvil account, flushed into L1_HANDLER transactions of a Cairo contract, messages sent by
 * that contract flushed to L1 and consumed there, the mock methods, starknet_getMessagesStatus and
 * starknet_estimateMessageFee. Raw JSON-RPC on both sides (the gateway's tests drive the same flow with viem and
 * starknet.js).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { Account, CallData, hash, RpcProvider, stark } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../startDevchain.js';
import { readTestContract } from '../testing/readTestContract.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';
import { bounds3 } from '../testing/signedTx.js';
import { wsClient } from '../testing/wsClient.js';
import { MESSAGING_SELECTORS, MESSAGING_SLOTS, MESSAGING_TOPICS } from './l1/messagingContract.js';
import { l1ToL2MessageHash, l2ToL1MessageHash } from './messageHashes.js';

const require = createRequire(import.meta.url);
const keccakHex = (s: string) => `0x${Buffer.from(keccak_256(new TextEncoder().encode(s))).toString('hex')}`;
const sel = (name: string) => hash.getSelectorFromName(name);
const word = (v: bigint) => v.toString(16).padStart(64, '0');
const abiCall = (selector: number, words: bigint[]) =>
  `0x${selector.toString(16).padStart(8, '0')}${words.map(word).join('')}`;

let anvil: ChildProcess;
let l1: string;
let dc: RunningDevchain;
let provider: RpcProvider;
let alice: Account;
/** The l1_l2 test contract (packages/sierra-vm/test-contracts/l1_l2.cairo). */
let l2Contract: string;
/** anvil's first account: the postman's sender; the second: the "user" that sends and consumes messages. */
let user: string;

/** Starts anvil on a free loopback port. */
async function startAnvil(): Promise<{ child: ChildProcess; url: string }> {
  const bin = join(dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil');
  const child = spawn(bin, ['--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Listening on [^\s:]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`anvil exited (${code}): ${out}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function eth<T = any>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(l1, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

/** Sends an L1 transaction from `from` and returns its receipt (anvil mines it just after answering the hash). */
async function send(from: string, to: string, data: string, value = 0n) {
  const txHash = await eth<string>('eth_sendTransaction', [{ from, to, data, value: `0x${value.toString(16)}` }]);
  for (let i = 0; i < 200; i++) {
    const receipt = await eth<{
      status: string;
      logs: { topics: string[]; data: string }[];
      transactionHash: string;
    } | null>('eth_getTransactionReceipt', [txHash]);
    if (receipt) return receipt;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no receipt for ${txHash}`);
}

const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 50 });
const balanceOf = async (who: bigint) =>
  BigInt(
    (await provider.callContract({ contractAddress: l2Contract, entrypoint: 'get_balance', calldata: [who] }))[0]!,
  );

beforeAll(async () => {
  const started = await startAnvil();
  anvil = started.child;
  l1 = started.url;
  dc = await startDevchain({ port: 0, accounts: 1, seed: 3 });
  provider = new RpcProvider({ nodeUrl: dc.rpcUrl });
  const [a] = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  alice = new Account({ provider, address: a.address, signer: a.private_key });
  const declared = await alice.declare(
    { contract: readTestContract('l1_l2'), compiledClassHash: '0x1' },
    { resourceBounds: bounds3(10n ** 9n) },
  );
  await wait(declared.transaction_hash);
  const deployed = await alice.deploy(
    { classHash: declared.class_hash, constructorCalldata: CallData.toHex([]), salt: stark.randomAddress() },
    { resourceBounds: bounds3(10n ** 8n) },
  );
  await wait(deployed.transaction_hash);
  l2Contract = deployed.contract_address[0]!;
  user = (await eth<string[]>('eth_accounts', []))[1]!;
});

afterAll(async () => {
  await dc?.close();
  anvil?.kill('SIGTERM');
});

describe('the L1 messaging contract', () => {
  it("has StarknetMessaging's selectors, event topics and named storage slots", () => {
    const fn = (sig: string) => Number.parseInt(keccakHex(sig).slice(2, 10), 16);
    expect(MESSAGING_SELECTORS).toEqual({
      sendMessageToL2: fn('sendMessageToL2(uint256,uint256,uint256[])'),
      consumeMessageFromL2: fn('consumeMessageFromL2(uint256,uint256[])'),
      mockSendMessageFromL2: fn('mockSendMessageFromL2(uint256,uint256,uint256[])'),
      mockConsumeMessageToL2: fn('mockConsumeMessageToL2(uint256,uint256,uint256,uint256[],uint256)'),
      l1ToL2Messages: fn('l1ToL2Messages(bytes32)'),
      l2ToL1Messages: fn('l2ToL1Messages(bytes32)'),
      l1ToL2MessageNonce: fn('l1ToL2MessageNonce()'),
      getMaxL1MsgFee: fn('getMaxL1MsgFee()'),
    });
    const big = (s: string) => BigInt(keccakHex(s));
    expect(MESSAGING_TOPICS).toEqual({
      LogMessageToL2: big('LogMessageToL2(address,uint256,uint256,uint256[],uint256,uint256)'),
      ConsumedMessageToL1: big('ConsumedMessageToL1(uint256,address,uint256[])'),
      LogMessageToL1: big('LogMessageToL1(uint256,address,uint256[])'),
      ConsumedMessageToL2: big('ConsumedMessageToL2(address,uint256,uint256,uint256[],uint256)'),
    });
    expect(MESSAGING_SLOTS).toEqual({
      l1ToL2Messages: big('STARKNET_1.0_MSGING_L1TOL2_MAPPPING_V2'),
      l2ToL1Messages: big('STARKNET_1.0_MSGING_L2TOL1_MAPPPING'),
      l1ToL2MessageNonce: big('STARKNET_1.0_MSGING_L1TOL2_NONCE'),
    });
  });
});

describe('postman with anvil as L1', () => {
  let contract: string;
  const depositor = 0x5eedn;

  it('devnet_postmanFlush before devnet_postmanLoad: -1, and a dry run answers without an L1', async () => {
    const refused = await rawRpc(dc.rpcUrl, 'devnet_postmanFlush', {});
    expect(refused.error).toMatchObject({ code: -1, message: expect.stringMatching(/devnet_postmanLoad/) });
    expect(await rpcResult(dc.rpcUrl, 'devnet_postmanFlush', { dry_run: true })).toEqual({
      messages_to_l1: [],
      messages_to_l2: [],
      generated_l2_transactions: [],
      l1_provider: 'dry run',
    });
  });

  it('devnet_postmanLoad deploys the messaging contract on anvil; bad params are -32602', async () => {
    const loaded = await rpcResult(dc.rpcUrl, 'devnet_postmanLoad', { network_url: l1 });
    contract = loaded.messaging_contract_address;
    expect(contract).toMatch(/^0x[0-9a-f]{40}$/);
    expect((await eth<string>('eth_getCode', [contract, 'latest'])).length).toBeGreaterThan(1000);
    expect(
      BigInt(
        await eth('eth_call', [{ to: contract, data: abiCall(MESSAGING_SELECTORS.getMaxL1MsgFee, []) }, 'latest']),
      ),
    ).toBe(10n ** 18n);
    // attaching the same contract by address
    expect(await rpcResult(dc.rpcUrl, 'devnet_postmanLoad', { network_url: l1, address: contract })).toEqual({
      messaging_contract_address: contract,
    });
    for (const [params, pattern] of [
      [{}, /network_url/],
      [{ network_url: 'ftp://x' }, /network_url/],
      [{ network_url: l1, messaging_contract_address: '0x12' }, /messaging_contract_address/],
      [{ network_url: l1, deployer_account_private_key: '0x1' }, /private_key/],
    ] as const) {
      const r = await rawRpc(dc.rpcUrl, 'devnet_postmanLoad', params);
      expect(r.error?.code).toBe(-32602);
      expect(JSON.stringify(r.error)).toMatch(pattern);
    }
    // an address without code, and an L1 that does not answer: -1 with the reason
    const empty = await rawRpc(dc.rpcUrl, 'devnet_postmanLoad', { network_url: l1, address: `0x${'12'.repeat(20)}` });
    expect(empty.error).toMatchObject({ code: -1, message: expect.stringMatching(/contains no contract/) });
    const away = await rawRpc(dc.rpcUrl, 'devnet_postmanLoad', { network_url: 'http://user:pw@127.0.0.1:9/' });
    expect(away.error).toMatchObject({ code: -1, message: expect.stringMatching(/unreachable/) });
    expect(away.error!.message).not.toMatch(/pw/);
    // the failed loads left the loaded contract in place
    expect((await rpcResult(dc.rpcUrl, 'devnet_postmanFlush', {})).l1_provider).toBe(l1);
  });

  it('a message sent on L1 becomes an L1_HANDLER transaction on flush, with the hashes Starknet defines', async () => {
    const payload = [depositor, 250n];
    const selector = BigInt(sel('deposit'));
    const data = abiCall(MESSAGING_SELECTORS.sendMessageToL2, [BigInt(l2Contract), selector, 0x60n, 2n, ...payload]);
    const nonceBefore = BigInt(
      await eth('eth_call', [{ to: contract, data: abiCall(MESSAGING_SELECTORS.l1ToL2MessageNonce, []) }, 'latest']),
    );
    const l1Message = { from: BigInt(user), to: BigInt(l2Contract), selector, payload, nonce: nonceBefore };
    const expectedHash = l1ToL2MessageHash(l1Message);
    // the call's answer: (hash, nonce)
    const answer = await eth<string>('eth_call', [{ from: user, to: contract, data, value: '0x7' }, 'latest']);
    expect(answer).toBe(`0x${expectedHash.slice(2)}${word(nonceBefore)}`);
    const sent = await send(user, contract, data, 7n);
    expect(sent.status).toBe('0x1');
    const log = sent.logs.find((l) => BigInt(l.topics[0]!) === MESSAGING_TOPICS.LogMessageToL2)!;
    expect(log.topics.slice(1).map(BigInt)).toEqual([BigInt(user), BigInt(l2Contract), selector]);
    const pending = abiCall(MESSAGING_SELECTORS.l1ToL2Messages, [BigInt(expectedHash)]);
    expect(BigInt(await eth('eth_call', [{ to: contract, data: pending }, 'latest']))).toBe(8n); // fee + 1

    // the estimate of the message, before it is flushed
    const estimate = await rpcResult(dc.rpcUrl, 'starknet_estimateMessageFee', {
      message: {
        from_address: user,
        to_address: l2Contract,
        entry_point_selector: sel('deposit'),
        payload: payload.map((v) => `0x${v.toString(16)}`),
      },
      block_id: 'latest',
    });

    const flushed = await rpcResult(dc.rpcUrl, 'devnet_postmanFlush', {});
    expect(flushed.messages_to_l2).toEqual([
      {
        l1_transaction_hash: sent.transactionHash,
        l2_contract_address: l2Contract,
        entry_point_selector: `0x${selector.toString(16)}`,
        l1_contract_address: user.toLowerCase(),
        payload: ['0x5eed', '0xfa'],
        paid_fee_on_l1: '0x7',
        nonce: `0x${nonceBefore.toString(16)}`,
      },
    ]);
    expect(flushed.generated_l2_transactions).toHaveLength(1);
    const txHash = flushed.generated_l2_transactions[0];
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: txHash });
    expect(receipt).toMatchObject({ type: 'L1_HANDLER', execution_status: 'SUCCEEDED', message_hash: expectedHash });
    // the estimate was the fee and gas of the transaction
    expect(receipt.actual_fee).toEqual({ amount: estimate.overall_fee, unit: 'WEI' });
    expect(receipt.execution_resources.l2_gas).toBe(Number(estimate.l2_gas_consumed));
    expect(BigInt(estimate.l2_gas_consumed)).toBeGreaterThan(100_000n); // the handler's Sierra gas counts
    const tx = await rpcResult(dc.rpcUrl, 'starknet_getTransactionByHash', { transaction_hash: txHash });
    expect(tx).toMatchObject({
      type: 'L1_HANDLER',
      version: '0x0',
      nonce: `0x${nonceBefore.toString(16)}`,
      contract_address: l2Contract,
      calldata: [user.toLowerCase(), '0x5eed', '0xfa'],
    });
    expect(await balanceOf(depositor)).toBe(250n);
    // on L1 the message is consumed (as the core contract does once the state update is proven)
    expect(BigInt(await eth('eth_call', [{ to: contract, data: pending }, 'latest']))).toBe(0n);
    // starknet_getMessagesStatus of the L1 transaction
    expect(
      await rpcResult(dc.rpcUrl, 'starknet_getMessagesStatus', { transaction_hash: sent.transactionHash }),
    ).toEqual([{ transaction_hash: txHash, finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' }]);
    // a second flush has nothing new
    const again = await rpcResult(dc.rpcUrl, 'devnet_postmanFlush', {});
    expect(again.messages_to_l2).toEqual([]);
    expect(again.generated_l2_transactions).toEqual([]);
  });

  it('a message sent by the L2 contract is flushed to L1, where consumeMessageFromL2 consumes it once', async () => {
    const { transaction_hash } = await alice.execute(
      { contractAddress: l2Contract, entrypoint: 'withdraw', calldata: [depositor, 100n, BigInt(user)] },
      { resourceBounds: bounds3(10n ** 8n) },
    );
    expect((await wait(transaction_hash)).isSuccess()).toBe(true);
    expect(await balanceOf(depositor)).toBe(150n);
    const dry = await rpcResult(dc.rpcUrl, 'devnet_postmanFlush', { dry_run: true });
    const message = { from_address: l2Contract, to_address: user.toLowerCase(), payload: ['0x5eed', '0x64'] };
    expect(dry.messages_to_l1).toEqual([message]);
    const flushed = await rpcResult(dc.rpcUrl, 'devnet_postmanFlush', {});
    expect(flushed.messages_to_l1).toEqual([message]);
    expect(flushed.l1_provider).toBe(l1);
    const msgHash = l2ToL1MessageHash({ from: BigInt(l2Contract), to: BigInt(user), payload: [depositor, 100n] });
    const count = abiCall(MESSAGING_SELECTORS.l2ToL1Messages, [BigInt(msgHash)]);
    expect(BigInt(await eth('eth_call', [{ to: contract, data: count }, 'latest']))).toBe(1n);
    // consumed on L1 by its recipient
    const consume = abiCall(MESSAGING_SELECTORS.consumeMessageFromL2, [BigInt(l2Contract), 0x40n, 2n, depositor, 100n]);
    expect(await eth('eth_call', [{ from: user, to: contract, data: consume }, 'latest'])).toBe(msgHash);
    const consumed = await send(user, contract, consume);
    expect(consumed.status).toBe('0x1');
    expect(BigInt(consumed.logs[0]!.topics[0]!)).toBe(MESSAGING_TOPICS.ConsumedMessageToL1);
    expect(BigInt(await eth('eth_call', [{ to: contract, data: count }, 'latest']))).toBe(0n);
    // a second consumption reverts with the core contract's reason
    await expect(eth('eth_call', [{ from: user, to: contract, data: consume }, 'latest'])).rejects.toThrow(
      /INVALID_MESSAGE_TO_CONSUME/,
    );
    // nothing left to flush
    expect((await rpcResult(dc.rpcUrl, 'devnet_postmanFlush', {})).messages_to_l1).toEqual([]);
  });

  it('the mock methods: a message to L2 without L1 (and its status by the given L1 hash), a message from L2 consumed without L1', async () => {
    const l1Hash = `0x${'ab'.repeat(32)}`;
    const sent = await rpcResult(dc.rpcUrl, 'devnet_postmanSendMessageToL2', {
      l2_contract_address: l2Contract,
      entry_point_selector: sel('deposit'),
      l1_contract_address: user,
      payload: ['0x77', '0x5'],
      paid_fee_on_l1: '0x1',
      nonce: '0x1000',
      l1_transaction_hash: l1Hash,
    });
    expect(await balanceOf(0x77n)).toBe(5n);
    expect(await rpcResult(dc.rpcUrl, 'starknet_getMessagesStatus', { transaction_hash: l1Hash })).toEqual([
      { transaction_hash: sent.transaction_hash, finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' },
    ]);
    // the same message again is the same transaction
    const dup = await rawRpc(dc.rpcUrl, 'devnet_postmanSendMessageToL2', {
      l2_contract_address: l2Contract,
      entry_point_selector: sel('deposit'),
      l1_contract_address: user,
      payload: ['0x77', '0x5'],
      paid_fee_on_l1: '0x1',
      nonce: '0x1000',
    });
    expect(dup.error?.code).toBe(59);
    // a handler that fails: a REVERTED transaction with its reason, shown by getMessagesStatus
    const failedL1Hash = '0x1234';
    const failed = await rpcResult(dc.rpcUrl, 'devnet_postmanSendMessageToL2', {
      l2_contract_address: l2Contract,
      entry_point_selector: sel('deposit'),
      l1_contract_address: user,
      payload: ['0x77', '0x0'],
      paid_fee_on_l1: '0x1',
      nonce: '0x1001',
      l1_transaction_hash: failedL1Hash,
    });
    const [status] = await rpcResult(dc.rpcUrl, 'starknet_getMessagesStatus', { transaction_hash: failedL1Hash });
    expect(status).toMatchObject({ transaction_hash: failed.transaction_hash, execution_status: 'REVERTED' });
    expect(status.failure_reason).toMatch(/deposit of nothing/);
    // no contract, no such L1 handler, bad params
    const to = (over: Record<string, unknown>) =>
      rawRpc(dc.rpcUrl, 'devnet_postmanSendMessageToL2', {
        l2_contract_address: l2Contract,
        entry_point_selector: sel('deposit'),
        l1_contract_address: user,
        payload: ['0x1', '0x1'],
        paid_fee_on_l1: '0x1',
        nonce: '0x2000',
        ...over,
      });
    expect((await to({ l2_contract_address: '0x999' })).error?.code).toBe(20);
    expect((await to({ entry_point_selector: sel('withdraw') })).error?.code).toBe(21);
    expect((await to({ l1_contract_address: 'me' })).error?.code).toBe(-32602);
    expect((await to({ payload: 'x' })).error?.code).toBe(-32602);
    expect((await to({ nonce: undefined })).error?.code).toBe(-32602);

    // from L2: sent by withdraw, consumed by the mock once
    const { transaction_hash } = await alice.execute(
      { contractAddress: l2Contract, entrypoint: 'withdraw', calldata: [0x77n, 2n, 0xabcn] },
      { resourceBounds: bounds3(10n ** 8n) },
    );
    await wait(transaction_hash);
    const message = { from_address: l2Contract, to_address: '0xabc', payload: ['0x77', '0x2'] };
    const consumed = await rpcResult(dc.rpcUrl, 'devnet_postmanConsumeMessageFromL2', message);
    expect(consumed.message_hash).toBe(
      l2ToL1MessageHash({ from: BigInt(l2Contract), to: 0xabcn, payload: [0x77n, 2n] }),
    );
    const twice = await rawRpc(dc.rpcUrl, 'devnet_postmanConsumeMessageFromL2', message);
    expect(twice.error).toMatchObject({ code: -1, message: expect.stringMatching(/not present/) });
    const bad = await rawRpc(dc.rpcUrl, 'devnet_postmanConsumeMessageFromL2', { ...message, to_address: 'x' });
    expect(bad.error?.code).toBe(-32602);
  });

  it('a method that answers later works over WebSocket and in a batch beside methods that answer at once', async () => {
    const ws = await wsClient(dc.wsUrl);
    try {
      expect(await ws.result('devnet_postmanFlush', { dry_run: false })).toMatchObject({ l1_provider: l1 });
      expect((await ws.call('devnet_postmanFlush', { dry_run: 1 })).error?.code).toBe(-32602);
    } finally {
      ws.close();
    }
    const res = await fetch(dc.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'starknet_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'devnet_postmanFlush', params: {} },
        { jsonrpc: '2.0', id: 3, method: 'starknet_blockNumber' },
      ]),
    });
    const batch = (await res.json()) as { id: number; result?: any }[];
    expect(batch.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(batch[1]!.result.l1_provider).toBe(l1);
    expect(typeof batch[2]!.result).toBe('number');
  });

  it('starknet_getMessagesStatus of an unknown or malformed L1 hash: 29, -32602', async () => {
    expect((await rawRpc(dc.rpcUrl, 'starknet_getMessagesStatus', { transaction_hash: '0x99' })).error?.code).toBe(29);
    expect((await rawRpc(dc.rpcUrl, 'starknet_getMessagesStatus', { transaction_hash: 'nope' })).error?.code).toBe(
      -32602,
    );
  });
});
