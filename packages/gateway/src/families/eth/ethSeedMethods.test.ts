import { createMPTFromProof } from '@ethereumjs/mpt';
import {
  type Address,
  createWalletClient,
  encodeAbiParameters,
  fromRlp,
  type Hex,
  hexToBigInt,
  http,
  keccak256,
  pad,
  toHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  postJson,
  rpc,
  startTestGateway,
  type TestGateway,
  waitForReceipt,
} from '../../test-support/startTestGateway.js';
import { STORAGE_CONTRACT_BYTECODE } from '../../test-support/storageContract.js';

// anvil's well-known first dev account
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as Address;

let t: TestGateway;
let contract: Address;
const txs: Record<'legacy' | 'eip2930' | 'eip1559' | 'deploy', Hex> = {} as never;
let blockOf: Record<string, { hash: Hex; number: Hex }> = {};

/** What the interface says a pending block / transaction looks like, applied to anvil's own answer. */
function expectedPendingBlock(b: any) {
  return {
    ...b,
    hash: null,
    logsBloom: null,
    nonce: null,
    number: null,
    transactions: b.transactions.map((tx: any) =>
      typeof tx === 'string' ? tx : { ...tx, blockHash: null, blockNumber: null, transactionIndex: null },
    ),
  };
}

beforeAll(async () => {
  t = await startTestGateway();
  const wallet = createWalletClient({ account, chain: foundry, transport: http(t.rpcUrl) });
  // Every write goes through the gateway as a locally signed raw transaction.
  txs.deploy = await wallet.deployContract({ abi: [], bytecode: STORAGE_CONTRACT_BYTECODE, type: 'eip1559' });
  contract = (await waitForReceipt(t.rpcUrl, txs.deploy)).contractAddress;
  const setData = (key: Address, value: bigint) =>
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, value]);
  txs.legacy = await wallet.sendTransaction({
    to: contract,
    data: setData(OTHER, 1000n),
    type: 'legacy',
    gasPrice: 2_000_000_000n,
  });
  txs.eip2930 = await wallet.sendTransaction({
    to: contract,
    data: setData(account.address, 55n),
    type: 'eip2930',
    gasPrice: 2_000_000_000n,
    accessList: [{ address: contract, storageKeys: [pad('0x00')] }],
  });
  txs.eip1559 = await wallet.sendTransaction({ to: OTHER, value: 12345n, type: 'eip1559' });
  blockOf = {};
  for (const [name, hash] of Object.entries(txs)) {
    const r = await waitForReceipt(t.rpcUrl, hash);
    expect(r.status).toBe('0x1');
    blockOf[name] = { hash: r.blockHash, number: r.blockNumber };
  }
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

/** Every seed-method case: params, and how anvil's direct answer maps to the gateway's. */
function cases(): Array<{ name: string; method: string; params: unknown[]; expected?: (direct: any) => unknown }> {
  const zeroHash = `0x${'ab'.repeat(32)}`;
  return [
    { name: 'storage slot 0', method: 'eth_getStorageAt', params: [contract, '0x0', 'latest'] },
    { name: 'storage at block number', method: 'eth_getStorageAt', params: [contract, '0x0', blockOf.deploy!.number] },
    { name: 'storage earliest', method: 'eth_getStorageAt', params: [contract, '0x0', 'earliest'] },
    { name: 'block by hash (hashes)', method: 'eth_getBlockByHash', params: [blockOf.legacy!.hash, false] },
    { name: 'block by hash (full)', method: 'eth_getBlockByHash', params: [blockOf.eip2930!.hash, true] },
    { name: 'block by hash (not found)', method: 'eth_getBlockByHash', params: [zeroHash, true] },
    { name: 'block by number', method: 'eth_getBlockByNumber', params: [blockOf.eip1559!.number, true] },
    { name: 'block latest', method: 'eth_getBlockByNumber', params: ['latest', false] },
    { name: 'block earliest', method: 'eth_getBlockByNumber', params: ['earliest', true] },
    { name: 'block safe', method: 'eth_getBlockByNumber', params: ['safe', false] },
    { name: 'block finalized', method: 'eth_getBlockByNumber', params: ['finalized', false] },
    { name: 'block (not found)', method: 'eth_getBlockByNumber', params: ['0xffffff', false] },
    { name: 'tx legacy', method: 'eth_getTransactionByHash', params: [txs.legacy] },
    { name: 'tx eip2930', method: 'eth_getTransactionByHash', params: [txs.eip2930] },
    { name: 'tx eip1559', method: 'eth_getTransactionByHash', params: [txs.eip1559] },
    { name: 'tx (not found)', method: 'eth_getTransactionByHash', params: [zeroHash] },
    {
      name: 'tx by block hash',
      method: 'eth_getTransactionByBlockHashAndIndex',
      params: [blockOf.legacy!.hash, '0x0'],
    },
    {
      name: 'tx by block hash (bad index)',
      method: 'eth_getTransactionByBlockHashAndIndex',
      params: [blockOf.legacy!.hash, '0x5'],
    },
    { name: 'tx by block hash (no block)', method: 'eth_getTransactionByBlockHashAndIndex', params: [zeroHash, '0x0'] },
    {
      name: 'tx by block number',
      method: 'eth_getTransactionByBlockNumberAndIndex',
      params: [blockOf.eip2930!.number, '0x0'],
    },
    { name: 'tx by latest', method: 'eth_getTransactionByBlockNumberAndIndex', params: ['latest', '0x0'] },
    {
      name: 'tx by block number (none)',
      method: 'eth_getTransactionByBlockNumberAndIndex',
      params: ['0xffffff', '0x0'],
    },
    { name: 'proof', method: 'eth_getProof', params: [contract, [pad('0x0')], 'latest'] },
    { name: 'proof, no keys', method: 'eth_getProof', params: [OTHER, [], blockOf.eip1559!.number] },
  ];
}

async function direct(method: string, params: unknown[]) {
  return (await rpc(t.directUrl, method, params)).result;
}

describe('the seven seed methods: gateway answers what anvil answers', () => {
  it('over HTTP, one request at a time', async () => {
    for (const c of cases()) {
      const viaGateway = await rpc(t.rpcUrl, c.method, c.params, c.name);
      expect(viaGateway.id, c.name).toBe(c.name);
      expect(viaGateway.error, c.name).toBeUndefined();
      expect(viaGateway.result, c.name).toEqual(await direct(c.method, c.params));
    }
  });

  it('in one batch, answered in order with every id echoed', async () => {
    const list = cases();
    const res = await postJson(
      t.rpcUrl,
      list.map((c, i) => ({ jsonrpc: '2.0', id: i * 10, method: c.method, params: c.params })),
    );
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(list.length);
    for (const [i, c] of list.entries()) {
      expect(res.json[i].id).toBe(i * 10);
      expect(res.json[i].result, c.name).toEqual(await direct(c.method, c.params));
    }
  });

  it('over WebSocket', async () => {
    const ws = new WebSocket(t.wsUrl);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers = new Map<unknown, any>();
    const waiters = new Map<unknown, (v: any) => void>();
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString());
      const w = waiters.get(m.id);
      if (w) w(m);
      else answers.set(m.id, m);
    });
    const call = (id: string, method: string, params: unknown[]) =>
      new Promise<any>((resolve) => {
        waiters.set(id, resolve);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    for (const c of cases()) {
      const m = await call(c.name, c.method, c.params);
      expect(m.result, c.name).toEqual(await direct(c.method, c.params));
    }
    ws.close();
  });

  it('pending block and pending transactions carry null identity fields', async () => {
    await rpc(t.directUrl, 'evm_setAutomine', [false]);
    try {
      const wallet = createWalletClient({ account, chain: foundry, transport: http(t.rpcUrl) });
      const hash = await wallet.sendTransaction({ to: OTHER, value: 1n, type: 'eip1559' });
      for (const full of [false, true]) {
        const gw = (await rpc(t.rpcUrl, 'eth_getBlockByNumber', ['pending', full])).result;
        const anvil = await direct('eth_getBlockByNumber', ['pending', full]);
        expect(anvil.number).not.toBeNull(); // anvil fills them in…
        expect(gw.transactions.length).toBe(1);
        // anvil builds its pending block anew at each call, stamped with the time of the call: the two calls may
        // fall in different seconds, so the block's timestamp (and its transactions' blockTimestamp) may differ
        const untimed = ({ timestamp: _t, transactions, ...rest }: any) => ({
          ...rest,
          transactions: transactions.map((tx: any) =>
            typeof tx === 'string' ? tx : (({ blockTimestamp: _b, ...t }) => t)(tx),
          ),
        });
        expect(untimed(gw)).toEqual(untimed(expectedPendingBlock(anvil))); // …the gateway answers with nulls
        for (const key of ['hash', 'logsBloom', 'nonce', 'number']) expect(gw[key]).toBeNull();
      }
      const byIndex = (await rpc(t.rpcUrl, 'eth_getTransactionByBlockNumberAndIndex', ['pending', '0x0'])).result;
      const pendingTx = (await direct('eth_getBlockByNumber', ['pending', true])).transactions[0];
      expect(byIndex).toEqual({ ...pendingTx, blockHash: null, blockNumber: null, transactionIndex: null });
      expect(byIndex.hash).toBe(hash);
      expect((await rpc(t.rpcUrl, 'eth_getTransactionByBlockNumberAndIndex', ['pending', '0x1'])).result).toBeNull();
      expect([byIndex.blockHash, byIndex.blockNumber, byIndex.transactionIndex]).toEqual([null, null, null]);
      const byHash = (await rpc(t.rpcUrl, 'eth_getTransactionByHash', [hash])).result;
      expect(byHash.hash).toBe(hash);
      expect([byHash.blockHash, byHash.blockNumber, byHash.transactionIndex]).toEqual([null, null, null]);
    } finally {
      await rpc(t.directUrl, 'evm_setAutomine', [true]);
      await rpc(t.rpcUrl, 'evm_mine', []);
    }
  });

  it('blocks carry every field of the interface; transactions carry their type fields', async () => {
    const block = (await rpc(t.rpcUrl, 'eth_getBlockByHash', [blockOf.eip1559!.hash, true])).result;
    for (const field of [
      'difficulty',
      'extraData',
      'gasLimit',
      'gasUsed',
      'hash',
      'logsBloom',
      'miner',
      'mixHash',
      'nonce',
      'number',
      'parentHash',
      'receiptsRoot',
      'sha3Uncles',
      'size',
      'stateRoot',
      'timestamp',
      'totalDifficulty',
      'transactions',
      'transactionsRoot',
      'uncles',
    ]) {
      expect(block, field).toHaveProperty(field);
    }
    const tx1559 = block.transactions[0];
    expect(tx1559.type).toBe('0x2');
    expect(tx1559.chainId).toBe('0x7a69');
    expect(tx1559).toHaveProperty('maxFeePerGas');
    expect(tx1559).toHaveProperty('maxPriorityFeePerGas');
    const tx2930 = (await rpc(t.rpcUrl, 'eth_getTransactionByHash', [txs.eip2930])).result;
    expect(tx2930.type).toBe('0x1');
    expect(tx2930.accessList).toEqual([{ address: contract.toLowerCase(), storageKeys: [pad('0x00')] }]);
    const legacy = (await rpc(t.rpcUrl, 'eth_getTransactionByHash', [txs.legacy])).result;
    expect(legacy.type).toBe('0x0');
    expect(legacy.gasPrice).toBe(toHex(2_000_000_000n));
  });
});

describe('eth_getStorageAt', () => {
  it('reads a simple variable at its declaration index', async () => {
    const v = (await rpc(t.rpcUrl, 'eth_getStorageAt', [contract, '0x0', 'latest'])).result;
    expect(hexToBigInt(v)).toBe(42n);
    expect(v).toHaveLength(66);
  });

  it('reads mapping elements at keccak256(pad32(key) ++ pad32(slot))', async () => {
    const slotOf = (key: Address) => keccak256(`${pad(key)}${pad('0x1').slice(2)}` as Hex);
    const mine = (await rpc(t.rpcUrl, 'eth_getStorageAt', [contract, slotOf(account.address), 'latest'])).result;
    const other = (await rpc(t.rpcUrl, 'eth_getStorageAt', [contract, slotOf(OTHER), 'latest'])).result;
    expect(hexToBigInt(mine)).toBe(55n); // constructor wrote 7, the EIP-2930 tx wrote 55
    expect(hexToBigInt(other)).toBe(1000n);
    const atDeploy = (
      await rpc(t.rpcUrl, 'eth_getStorageAt', [contract, slotOf(account.address), blockOf.deploy!.number])
    ).result;
    expect(hexToBigInt(atDeploy)).toBe(7n);
  });
});

describe('eth_getProof', () => {
  async function verify(address: Address, keys: Hex[], block: string) {
    const proof = (await rpc(t.rpcUrl, 'eth_getProof', [address, keys, block])).result;
    const header = (await rpc(t.rpcUrl, 'eth_getBlockByNumber', [block, false])).result;
    const accountTrie = await createMPTFromProof(proof.accountProof.map(hexBytes), { useKeyHashing: true });
    expect(toHex(accountTrie.root())).toBe(header.stateRoot);
    const raw = await accountTrie.get(hexBytes(address));
    expect(raw).not.toBeNull();
    const [nonce, balance, storageRoot, codeHash] = fromRlp(toHex(raw!), 'hex') as Hex[];
    expect(BigInt(nonce === '0x' ? 0 : nonce!)).toBe(BigInt(proof.nonce));
    expect(BigInt(balance === '0x' ? 0 : balance!)).toBe(BigInt(proof.balance));
    expect(storageRoot).toBe(proof.storageHash);
    expect(codeHash).toBe(proof.codeHash);
    for (const [i, sp] of proof.storageProof.entries()) {
      expect(sp.key).toBe(keys[i]);
      const storageTrie = await createMPTFromProof(sp.proof.map(hexBytes), { useKeyHashing: true });
      expect(toHex(storageTrie.root())).toBe(proof.storageHash);
      const stored = await storageTrie.get(hexBytes(pad(keys[i]!)));
      const value = stored === null ? 0n : hexToBigInt(fromRlp(toHex(stored), 'hex') as Hex);
      expect(value).toBe(BigInt(sp.value));
    }
    return proof;
  }

  it('verifies account and storage proofs against the block stateRoot', async () => {
    const mapSlot = keccak256(`${pad(OTHER)}${pad('0x1').slice(2)}` as Hex);
    const proof = await verify(contract, [pad('0x0'), mapSlot, pad('0x99')], 'latest');
    expect(BigInt(proof.storageProof[0].value)).toBe(42n);
    expect(BigInt(proof.storageProof[1].value)).toBe(1000n);
    expect(BigInt(proof.storageProof[2].value)).toBe(0n);
    await verify(OTHER, [], blockOf.eip1559!.number);
  });

  it('left-pads short storage keys to 32 bytes (anvil rejects them) and echoes the key asked for', async () => {
    const anvil = await rpc(t.directUrl, 'eth_getProof', [contract, ['0x0'], 'latest']);
    expect(anvil.error).toBeDefined();
    const proof = await verify(contract, ['0x0'], 'latest');
    expect(BigInt(proof.storageProof[0].value)).toBe(42n);
  });
});

function hexBytes(h: string): Uint8Array {
  return Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
}
