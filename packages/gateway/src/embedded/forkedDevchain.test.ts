/**
 * One embedded dev chain forked from another (both started as the gateway starts its backends), and a gateway in
 * front of the fork: starknet.js sees the origin's accounts, balances, blocks and transactions up to the fork block,
 * its own transactions build on them, and the origin is left as it was.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, config as starknetConfig, RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../config/validateConfig.js';
import { type RunningGateway, startGateway } from '../main.js';
import { postJson } from '../test-support/startTestGateway.js';
import { startStarknetDevchain } from './startStarknetDevchain.js';
import type { StartedBackend } from './superviseBackend.js';

starknetConfig.set('logLevel', 'ERROR');

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

let dir: string;
let origin: StartedBackend;
let fork: StartedBackend;
let gw: RunningGateway;
let url: string;
let originTransfer: string;
let forkBlock: number;

const rpc = async (to: string, method: string, params: unknown = {}) => {
  const body = (await postJson(to, { jsonrpc: '2.0', id: 1, method, params })).json as {
    result?: any;
    error?: { code: number; message: string };
  };
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result;
};
const balance = async (to: string, who: string) =>
  BigInt((await rpc(to, 'devnet_getAccountBalance', { address: who, unit: 'FRI' })).amount);

async function account(to: string): Promise<{ provider: RpcProvider; account: Account }> {
  const provider = new RpcProvider({ nodeUrl: to });
  const [a] = await rpc(to, 'devnet_getPredeployedAccounts');
  return { provider, account: new Account({ provider, address: a.address, signer: a.private_key }) };
}

async function transfer(to: string, recipient: string, amount: bigint): Promise<string> {
  const { provider, account: sender } = await account(to);
  const { transaction_hash } = await sender.execute({
    contractAddress: STRK,
    entrypoint: 'transfer',
    calldata: [recipient, amount, 0n],
  });
  await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
  return transaction_hash;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-fork-'));
  origin = await startStarknetDevchain({ dataDir: join(dir, 'origin') });
  originTransfer = await transfer(origin.http, '0xa11ce', 1234n);
  forkBlock = await rpc(origin.http, 'starknet_blockNumber');
  fork = await startStarknetDevchain({ dataDir: join(dir, 'fork'), forkNetwork: origin.http });
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'gw'),
      devKey: true,
      networks: [
        {
          name: 'starknet-fork',
          family: 'starknet',
          dev: true,
          pathPrefix: '/starknet-fork',
          upstreams: [{ name: 'fork', http: fork.http }],
        },
      ],
    }),
  );
  url = `${gw.networks['starknet-fork']!.http}/v3/${gw.devKey!.key}`;
});

afterAll(async () => {
  await gw?.close();
  await fork?.stop();
  await origin?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an embedded dev chain forked from another, through the gateway', () => {
  it("starts after the origin's latest block and serves the origin's blocks, transactions and state", async () => {
    const { provider } = await account(url);
    expect(await provider.getBlockNumber()).toBe(forkBlock + 1);
    expect(await provider.getChainId()).toBe(await rpc(origin.http, 'starknet_chainId'));
    const receipt = await provider.getTransactionReceipt(originTransfer);
    expect(receipt.isSuccess()).toBe(true);
    const originBlock = await rpc(origin.http, 'starknet_getBlockWithTxHashes', {
      block_id: { block_number: forkBlock },
    });
    expect((await provider.getBlockWithTxHashes(forkBlock)).block_hash).toBe(originBlock.block_hash);
    expect((await provider.getBlockWithTxHashes(forkBlock + 1)).parent_hash).toBe(originBlock.block_hash);
    expect(await balance(url, '0xa11ce')).toBe(1234n);
    expect((await rpc(url, 'devnet_getConfig')).fork_config).toEqual({ url: origin.http, block_number: forkBlock });
  });

  it('builds its own transactions on the origin state; the origin does not see them', async () => {
    const { account: sender } = await account(url);
    const before = await balance(url, sender.address);
    expect(before).toBe(await balance(origin.http, sender.address));
    await transfer(url, '0xa11ce', 66n);
    expect(await balance(url, '0xa11ce')).toBe(1300n);
    expect(await balance(origin.http, '0xa11ce')).toBe(1234n);
    expect(await balance(url, sender.address)).toBeLessThan(before - 66n);
  });
});
