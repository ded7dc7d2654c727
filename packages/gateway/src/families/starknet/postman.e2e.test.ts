/**
 * L1 ↔ L2 messaging through the gateway, as a developer does it in one command: the gateway's embedded anvil is L1
 * (viem on the eth-devnet network) and its embedded dev chain L2 (starknet.js on starknet-devnet). devnet_postmanLoad
 * takes the name of an Ethereum dev network (default: the embedded one) and never a URL; each postman method's bad
 * params are refused before any upstream call, on a non-dev network it does not exist, and a key with a contract
 * allowlist may only send messages to (or consume messages from) its contracts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bounds3, readTestContract } from '@nodegate/starknet-devchain/testing';
import { Account, CallData, config as starknetConfig, hash, RpcProvider, stark } from 'starknet';
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  getAddress,
  http,
  keccak256,
  encodePacked,
  parseAbi,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../config/validateConfig.js';
import { type RunningGateway, startGateway } from '../../main.js';
import { postJson } from '../../test-support/startTestGateway.js';
import { createTestKey } from '../../test-support/testKeys.js';

starknetConfig.set('logLevel', 'ERROR');

const MESSAGING_ABI = parseAbi([
  'function sendMessageToL2(uint256 toAddress, uint256 selector, uint256[] payload) payable returns (bytes32, uint256)',
  'function consumeMessageFromL2(uint256 fromAddress, uint256[] payload) returns (bytes32)',
  'function l1ToL2Messages(bytes32 msgHash) view returns (uint256)',
  'function l2ToL1Messages(bytes32 msgHash) view returns (uint256)',
  'function l1ToL2MessageNonce() view returns (uint256)',
  'event LogMessageToL2(address indexed fromAddress, uint256 indexed toAddress, uint256 indexed selector, uint256[] payload, uint256 nonce, uint256 fee)',
  'event ConsumedMessageToL1(uint256 indexed fromAddress, address indexed toAddress, uint256[] payload)',
]);

const sel = (name: string) => BigInt(hash.getSelectorFromName(name));

let dir: string;
let gw: RunningGateway;
let key: string;
let stkUrl: string;
let ethUrl: string;
let provider: RpcProvider;
let alice: Account;
let l1: PublicClient;
let wallet: WalletClient;
let user: `0x${string}`;
let l2Contract: string;
let messaging: `0x${string}`;

const rpc = async (url: string, method: string, params?: unknown) =>
  (await postJson(url, { jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) })).json as {
    result?: any;
    error?: { code: number; message: string; data?: unknown };
  };
const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 50 });
const balanceOf = async (who: bigint) =>
  BigInt(
    (await provider.callContract({ contractAddress: l2Contract, entrypoint: 'get_balance', calldata: [who] }))[0]!,
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-postman-'));
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: dir,
      devKey: true,
      networks: [
        {
          name: 'eth-devnet',
          family: 'eth',
          chainId: 31337,
          dev: true,
          pathPrefix: '/eth-devnet',
          upstreams: [{ name: 'anvil', embedded: 'anvil' }],
        },
        {
          name: 'starknet-devnet',
          family: 'starknet',
          dev: true,
          pathPrefix: '/starknet-devnet',
          upstreams: [{ name: 'starknet-devchain', embedded: 'starknet-devchain' }],
        },
        {
          name: 'starknet-sepolia',
          family: 'starknet',
          pathPrefix: '/starknet-sepolia',
          upstreams: [{ name: 'starknet-devchain', embedded: 'starknet-devchain' }],
        },
      ],
    }),
  );
  key = gw.devKey!.key;
  stkUrl = `${gw.networks['starknet-devnet']!.http}/v3/${key}`;
  ethUrl = `${gw.networks['eth-devnet']!.http}/v3/${key}`;
  provider = new RpcProvider({ nodeUrl: stkUrl });
  const [a] = (await rpc(stkUrl, 'devnet_getPredeployedAccounts', {})).result;
  alice = new Account({ provider, address: a.address, signer: a.private_key });
  const declared = await alice.declareIfNot(
    { contract: readTestContract('l1_l2'), compiledClassHash: '0x1' },
    { resourceBounds: bounds3(10n ** 9n) },
  );
  if (declared.transaction_hash) await wait(declared.transaction_hash);
  const deployed = await alice.deploy(
    { classHash: declared.class_hash, constructorCalldata: CallData.toHex([]), salt: stark.randomAddress() },
    { resourceBounds: bounds3(10n ** 8n) },
  );
  await wait(deployed.transaction_hash);
  l2Contract = deployed.contract_address[0]!;
  l1 = createPublicClient({ transport: http(ethUrl) });
  [, user] = (await createWalletClient({ transport: http(ethUrl) }).getAddresses()) as [`0x${string}`, `0x${string}`];
  wallet = createWalletClient({ account: user, transport: http(ethUrl) });
});

afterAll(async () => {
  await gw?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('devnet_postmanLoad through the gateway', () => {
  it('is refused with -32602 for a URL, an unknown network, a bad address or a private key; -32601 on a non-dev network', async () => {
    for (const [params, pattern] of [
      [
        { network_url: 'http://127.0.0.1:8545' },
        /network_url: expected the name of one of this gateway's Ethereum dev networks \(eth-devnet\)/,
      ],
      [{ network_url: 'eth-mainnet' }, /network_url/],
      [{ messaging_contract_address: '0x1234' }, /messaging_contract_address/],
      [{ deployer_account_private_key: `0x${'1'.repeat(64)}` }, /deployer_account_private_key/],
      [{ nope: 1 }, /has no param "nope"/],
    ] as const) {
      const r = await rpc(stkUrl, 'devnet_postmanLoad', params);
      expect(r.error?.code).toBe(-32602);
      expect(r.error?.message).toMatch(pattern);
      expect(r.error?.message).not.toMatch(/1111111111/);
    }
    const prod = `${gw.networks['starknet-sepolia']!.http}/v3/${key}`;
    for (const method of [
      'devnet_postmanLoad',
      'devnet_postmanFlush',
      'devnet_postmanSendMessageToL2',
      'devnet_postmanConsumeMessageFromL2',
    ]) {
      expect((await rpc(prod, method, {})).error?.code).toBe(-32601);
    }
  });

  it('deploys the messaging contract on the embedded anvil by default, and attaches it by network name and address', async () => {
    const loaded = await rpc(stkUrl, 'devnet_postmanLoad', {});
    expect(loaded.error).toBeUndefined();
    messaging = getAddress(loaded.result.messaging_contract_address);
    // viem sees the contract through the gateway's eth-devnet
    expect(await l1.readContract({ address: messaging, abi: MESSAGING_ABI, functionName: 'l1ToL2MessageNonce' })).toBe(
      0n,
    );
    const again = await rpc(stkUrl, 'devnet_postmanLoad', ['eth-devnet', messaging]);
    expect(again.result).toEqual({ messaging_contract_address: messaging.toLowerCase() });
  });
});

describe('messages between viem on L1 and starknet.js on L2', () => {
  const depositor = 0xd0n;

  it('L1 → L2: sendMessageToL2 with viem, estimateMessageFee, flush, the L1 handler ran, getMessagesStatus', async () => {
    const payload = [depositor, 1234n];
    const txHash = await wallet.writeContract({
      address: messaging,
      abi: MESSAGING_ABI,
      functionName: 'sendMessageToL2',
      args: [BigInt(l2Contract), sel('deposit'), payload],
      value: 5n,
      account: user,
      chain: null,
    });
    const receipt = await l1.waitForTransactionReceipt({ hash: txHash });
    const event = decodeEventLog({ abi: MESSAGING_ABI, ...receipt.logs[0]! });
    expect(event.eventName).toBe('LogMessageToL2');
    const { nonce } = event.args as { nonce: bigint };
    // Starknet's L1 → L2 hash, as the messaging contract stores it
    const msgHash = keccak256(
      encodePacked(
        ['uint256', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256[]'],
        [BigInt(user), BigInt(l2Contract), nonce, sel('deposit'), 2n, payload],
      ),
    );
    expect(
      await l1.readContract({
        address: messaging,
        abi: MESSAGING_ABI,
        functionName: 'l1ToL2Messages',
        args: [msgHash],
      }),
    ).toBe(6n);

    const estimate = await provider.estimateMessageFee({
      from_address: user,
      to_address: l2Contract,
      entry_point_selector: 'deposit',
      payload: payload.map((v) => `0x${v.toString(16)}`),
    });
    const flushed = await rpc(stkUrl, 'devnet_postmanFlush');
    expect(flushed.result.l1_provider).toBe('eth-devnet'); // the network's name, not anvil's loopback address
    expect(flushed.result.messages_to_l2).toHaveLength(1);
    expect(flushed.result.messages_to_l2[0]).toMatchObject({
      l1_transaction_hash: txHash,
      nonce: `0x${nonce.toString(16)}`,
    });
    const [l2Tx] = flushed.result.generated_l2_transactions;
    const l2Receipt: any = await provider.getTransactionReceipt(l2Tx);
    expect(l2Receipt.value).toMatchObject({ type: 'L1_HANDLER', execution_status: 'SUCCEEDED', message_hash: msgHash });
    expect(BigInt(l2Receipt.value.actual_fee.amount)).toBe(BigInt(estimate.overall_fee));
    expect(await balanceOf(depositor)).toBe(1234n);
    expect(
      await l1.readContract({
        address: messaging,
        abi: MESSAGING_ABI,
        functionName: 'l1ToL2Messages',
        args: [msgHash],
      }),
    ).toBe(0n);
    expect(await provider.getL1MessagesStatus(txHash)).toEqual([
      { transaction_hash: l2Tx, finality_status: 'ACCEPTED_ON_L2', execution_status: 'SUCCEEDED' },
    ]);
  });

  it('L2 → L1: withdraw with starknet.js, flush, consumeMessageFromL2 with viem (once)', async () => {
    const { transaction_hash } = await alice.execute(
      { contractAddress: l2Contract, entrypoint: 'withdraw', calldata: [depositor, 34n, BigInt(user)] },
      { resourceBounds: bounds3(10n ** 8n) },
    );
    expect((await wait(transaction_hash)).isSuccess()).toBe(true);
    const flushed = await rpc(stkUrl, 'devnet_postmanFlush', { dry_run: false });
    expect(flushed.result.messages_to_l1).toEqual([
      { from_address: l2Contract, to_address: user.toLowerCase(), payload: ['0xd0', '0x22'] },
    ]);
    const consume = {
      address: messaging,
      abi: MESSAGING_ABI,
      functionName: 'consumeMessageFromL2',
      args: [BigInt(l2Contract), [depositor, 34n]],
      account: user,
    } as const;
    const { result } = await l1.simulateContract(consume);
    const msgHash = keccak256(
      encodePacked(
        ['uint256', 'uint256', 'uint256', 'uint256[]'],
        [BigInt(l2Contract), BigInt(user), 2n, [depositor, 34n]],
      ),
    );
    expect(result).toBe(msgHash);
    const consumed = await l1.waitForTransactionReceipt({
      hash: await wallet.writeContract({ ...consume, chain: null }),
    });
    expect(consumed.status).toBe('success');
    expect(decodeEventLog({ abi: MESSAGING_ABI, ...consumed.logs[0]! }).eventName).toBe('ConsumedMessageToL1');
    await expect(l1.simulateContract(consume)).rejects.toThrow(/INVALID_MESSAGE_TO_CONSUME/);
    expect(await balanceOf(depositor)).toBe(1200n);
  });
});

describe('the mock postman methods through the gateway', () => {
  const message = () => ({
    l2_contract_address: l2Contract,
    entry_point_selector: `0x${sel('deposit').toString(16)}`,
    l1_contract_address: user,
    payload: ['0x99', '0x3'],
    paid_fee_on_l1: '0x1',
    nonce: '0x500',
  });

  it('sendMessageToL2 and consumeMessageFromL2 without L1; their bad params are -32602 before the dev chain', async () => {
    const sent = await rpc(stkUrl, 'devnet_postmanSendMessageToL2', { ...message(), l1_transaction_hash: '0xfeed' });
    expect(sent.result.transaction_hash).toMatch(/^0x[0-9a-f]+$/);
    expect(await balanceOf(0x99n)).toBe(3n);
    expect(await provider.getL1MessagesStatus('0xfeed')).toMatchObject([
      { transaction_hash: sent.result.transaction_hash },
    ]);
    const { transaction_hash } = await alice.execute(
      { contractAddress: l2Contract, entrypoint: 'withdraw', calldata: [0x99n, 1n, 0xe1n] },
      { resourceBounds: bounds3(10n ** 8n) },
    );
    await wait(transaction_hash);
    const consumed = await rpc(stkUrl, 'devnet_postmanConsumeMessageFromL2', {
      from_address: l2Contract,
      to_address: '0xe1',
      payload: ['0x99', '0x1'],
    });
    expect(consumed.result.message_hash).toMatch(/^0x[0-9a-f]{64}$/);
    for (const [method, params, at] of [
      ['devnet_postmanSendMessageToL2', { ...message(), l2_contract_address: 'x' }, 'l2_contract_address'],
      ['devnet_postmanSendMessageToL2', { ...message(), l1_contract_address: '0xzz' }, 'l1_contract_address'],
      ['devnet_postmanSendMessageToL2', { ...message(), payload: [1] }, 'payload\\[0\\]'],
      ['devnet_postmanSendMessageToL2', { ...message(), l1_transaction_hash: 7 }, 'l1_transaction_hash'],
      ['devnet_postmanConsumeMessageFromL2', { from_address: l2Contract, payload: [] }, 'to_address'],
      ['devnet_postmanFlush', { dry_run: 'yes' }, 'dry_run'],
    ] as const) {
      const r = await rpc(stkUrl, method, params);
      expect(r.error?.code, `${method} ${at}`).toBe(-32602);
      expect(r.error?.message).toMatch(new RegExp(at));
    }
    // the dev chain's own errors pass through: no such contract
    expect(
      (await rpc(stkUrl, 'devnet_postmanSendMessageToL2', { ...message(), l2_contract_address: '0x12345' })).error
        ?.code,
    ).toBe(20);
  });

  it('a key with a contract allowlist: messages to its contract only; load and flush refused', async () => {
    const restricted = await createTestKey(gw, { settings: { allowedContracts: [l2Contract] } });
    const url = `${gw.networks['starknet-devnet']!.http}/v3/${restricted.key}`;
    expect((await rpc(url, 'devnet_postmanSendMessageToL2', { ...message(), nonce: '0x501' })).error).toBeUndefined();
    const other = await rpc(url, 'devnet_postmanSendMessageToL2', {
      ...message(),
      nonce: '0x502',
      l2_contract_address: '0x777',
    });
    expect(other.error?.code).toBe(-32002);
    expect((await rpc(url, 'devnet_postmanLoad', {})).error?.code).toBe(-32002);
    expect((await rpc(url, 'devnet_postmanFlush', {})).error?.code).toBe(-32002);
  });
});
