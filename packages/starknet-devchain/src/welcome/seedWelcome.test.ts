import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Account, config, RpcProvider } from 'starknet';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevchain } from '../startDevchain.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';
import { syntheticAnswer } from '../testing/syntheticClass.js';
import { WELCOME_CLASS_TAG, WELCOME_TIMESTAMPS, WELCOME_TRANSFER_AMOUNT } from './welcomeConstants.js';

config.set('logLevel', 'ERROR');

// The documented welcome state (the root README names these): any change to hashing, to the
// predeployed accounts or to the welcome transactions shows here first.
const DOCUMENTED = {
  blocks: [
    '0x420fb00db1b3985028bc5349f8a2c56611de7c76c16b2e023b66e8fc4a01c05',
    '0x3c9e6f7648d7198da2d77c3db450ebea9870a583906683d97dfa9fc4f449507',
    '0x55d4dc4718af2feb9423806623d092a100ebc9afb09670d13d05be0ac7a6d2',
  ],
  transfer: '0x20041d74c391214a9ee183168530445db059ed7d28cfc04d4f9e6511af1d3da',
  declare: '0x22ffe1367cd8d087451ba8632a5f1bccd9df98c5a7dbf6fb11a0a3a28138e6d',
  classHash: '0x7d76be8dc6a36f2250c62d57ad8d2e01c0db787475965b30fbad8cdf835fea6',
};

const dirs: string[] = [];
async function tempDir() {
  const d = await mkdtemp(join(tmpdir(), 'devchain-welcome-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function blockHashes(url: string) {
  const n: number = await rpcResult(url, 'starknet_blockNumber');
  const out: Array<{ hash: string; timestamp: number; txs: string[] }> = [];
  for (let i = 0; i <= n; i++) {
    const b = await rpcResult(url, 'starknet_getBlockWithTxHashes', { block_id: { block_number: i } });
    out.push({ hash: b.block_hash, timestamp: b.timestamp, txs: b.transactions });
  }
  return out;
}

describe('the welcome state', () => {
  it('is the documented blocks, transactions and class on two new chains, accepted and charged like any', async () => {
    const [a, b] = await Promise.all([
      startDevchain({ dataDir: await tempDir(), welcome: true }),
      startDevchain({ dataDir: await tempDir(), welcome: true }),
    ]);
    try {
      const [ba, bb] = await Promise.all([blockHashes(a.rpcUrl), blockHashes(b.rpcUrl)]);
      expect(ba).toEqual(bb);
      expect(ba.map((x) => x.hash)).toEqual(DOCUMENTED.blocks);
      expect(ba.map((x) => x.timestamp)).toEqual([
        WELCOME_TIMESTAMPS.genesis,
        WELCOME_TIMESTAMPS.transfer,
        WELCOME_TIMESTAMPS.declare,
      ]);
      expect(ba.map((x) => x.txs)).toEqual([[], [DOCUMENTED.transfer], [DOCUMENTED.declare]]);

      const accounts = await rpcResult(a.rpcUrl, 'devnet_getPredeployedAccounts', { with_balance: true });
      const transfer = await rpcResult(a.rpcUrl, 'starknet_getTransactionReceipt', {
        transaction_hash: DOCUMENTED.transfer,
      });
      expect(transfer.execution_status).toBe('SUCCEEDED');
      expect(transfer.block_number).toBe(1);
      const declare = await rpcResult(a.rpcUrl, 'starknet_getTransactionReceipt', {
        transaction_hash: DOCUMENTED.declare,
      });
      expect(declare.execution_status).toBe('SUCCEEDED');
      expect(declare.block_number).toBe(2);
      // account 1 got the transfer; account 0 paid it and both fees
      expect(BigInt(accounts[1].balance.strk.amount)).toBe(
        BigInt(accounts[1].initial_balance) + WELCOME_TRANSFER_AMOUNT,
      );
      expect(BigInt(accounts[0].balance.strk.amount)).toBe(
        BigInt(accounts[0].initial_balance) -
          WELCOME_TRANSFER_AMOUNT -
          BigInt(transfer.actual_fee.amount) -
          BigInt(declare.actual_fee.amount),
      );
      expect(
        await rpcResult(a.rpcUrl, 'starknet_getNonce', { block_id: 'latest', contract_address: accounts[0].address }),
      ).toBe('0x2');

      const cls = await rpcResult(a.rpcUrl, 'starknet_getClass', {
        block_id: 'latest',
        class_hash: DOCUMENTED.classHash,
      });
      expect(cls.entry_points_by_type.EXTERNAL).toHaveLength(1);
      expect(JSON.parse(cls.abi)[0].name).toBe('get_answer');
      // the class is usable: deployed through starknet.js from account 0 (nonce 2), it answers
      const provider = new RpcProvider({ nodeUrl: a.rpcUrl });
      const account = new Account({ provider, address: accounts[0].address, signer: accounts[0].private_key });
      const deployed = await account.deployContract({ classHash: DOCUMENTED.classHash });
      const answer = await provider.callContract({
        contractAddress: deployed.contract_address,
        entrypoint: 'get_answer',
      });
      expect(BigInt(answer[0]!)).toBe(syntheticAnswer(WELCOME_CLASS_TAG));
      // blocks after the welcome state are on the real clock again
      const latest = await rpcResult(a.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: 'latest' });
      expect(latest.timestamp).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 60);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('is seeded once: a restart on the data directory keeps the chain as it is, and welcome: false seeds nothing', async () => {
    const dir = await tempDir();
    const first = await startDevchain({ dataDir: dir, welcome: true });
    const provider = new RpcProvider({ nodeUrl: first.rpcUrl });
    const accounts = await rpcResult(first.rpcUrl, 'devnet_getPredeployedAccounts');
    const account = new Account({ provider, address: accounts[2].address, signer: accounts[2].private_key });
    const { transaction_hash } = await account.execute({
      contractAddress: accounts[3].address,
      entrypoint: 'get_public_key',
      calldata: [],
    });
    await provider.waitForTransaction(transaction_hash);
    const before = await blockHashes(first.rpcUrl);
    expect(before).toHaveLength(4);
    await first.close();

    const again = await startDevchain({ dataDir: dir, welcome: true });
    try {
      expect(await blockHashes(again.rpcUrl)).toEqual(before);
    } finally {
      await again.close();
    }

    const plain = await startDevchain({ dataDir: await tempDir() });
    try {
      expect(await rpcResult(plain.rpcUrl, 'starknet_blockNumber')).toBe(0);
      const missing = await rawRpc(plain.rpcUrl, 'starknet_getTransactionReceipt', {
        transaction_hash: DOCUMENTED.transfer,
      });
      expect(missing.error?.code).toBe(29);
    } finally {
      await plain.close();
    }
  });
});
