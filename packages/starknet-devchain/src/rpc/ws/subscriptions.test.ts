import { createSpecValidator } from '@nodegate/starknet-spec/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../../startDevchain.js';
import { rpcResult } from '../../testing/rpc.js';
import { invokeV3, transferCalldata } from '../../testing/signedTx.js';
import { type WsClient, wsClient } from '../../testing/wsClient.js';

// The spec 0.10 subscriptions against real dev chains (one block per transaction, and one that
// mines on demand so that transactions sit PRE_CONFIRMED), with a real WebSocket client.
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const TRANSFER = '0x99cd8bde557814842a3121e8ddfd433a539b8c9f14bf31ebf108d12e6196e9';
type Account = { address: string; private_key: string };

let dc: RunningDevchain;
let onDemand: RunningDevchain;
let accounts: Account[];
let nonce = 0n;
const clients: WsClient[] = [];

async function client(url = dc.wsUrl): Promise<WsClient> {
  const c = await wsClient(url);
  clients.push(c);
  return c;
}

async function transfer(rpcUrl = dc.rpcUrl, from = accounts[0]!, amount = 1n, n = nonce++): Promise<string> {
  const t = invokeV3(from.address, transferCalldata(STRK, accounts[1]!.address, amount), n, from.private_key);
  return (await rpcResult(rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx })).transaction_hash;
}

const of = (id: string) => (n: { params: { subscription_id: string } }) => n.params.subscription_id === id;

beforeAll(async () => {
  dc = await startDevchain({ port: 0, accounts: 3 });
  onDemand = await startDevchain({ port: 0, accounts: 3, mineOnDemand: true });
  accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
});

afterAll(async () => {
  for (const c of clients) c.close();
  await dc.close();
  await onDemand.close();
});

describe('dev chain WebSocket subscriptions (spec 0.10)', () => {
  it('serves plain JSON-RPC over the WebSocket too', async () => {
    const c = await client();
    expect(await c.result('starknet_chainId')).toBe(dc.chainId);
    expect(await c.result('starknet_specVersion')).toBe('0.10.2');
  });

  it('newHeads: the latest head at once, then each new block in order, with parent hashes chained', async () => {
    const c = await client();
    const latest = await rpcResult(dc.rpcUrl, 'starknet_blockHashAndNumber');
    const id = await c.result('starknet_subscribeNewHeads', {});
    expect(typeof id).toBe('string');
    const [first] = await c.waitFor(of(id));
    expect(first!.method).toBe('starknet_subscriptionNewHeads');
    expect(first!.params.result.block_number).toBe(latest.block_number);
    expect(first!.params.result.block_hash).toBe(latest.block_hash);
    await transfer();
    await transfer();
    const heads = (await c.waitFor(of(id), 3)).map((n) => n.params.result);
    expect(heads.map((h) => h.block_number)).toEqual([
      latest.block_number,
      latest.block_number + 1,
      latest.block_number + 2,
    ]);
    expect(heads[1].parent_hash).toBe(heads[0].block_hash);
    expect(heads[2].parent_hash).toBe(heads[1].block_hash);
    const block = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', {
      block_id: { block_number: heads[2].block_number },
    });
    const { transactions: _t, ...header } = block;
    expect(heads[2]).toEqual(header);
  });

  it('newHeads with block_id replays from that block (number or hash); 68 beyond 1024 blocks; 24 for an unknown hash', async () => {
    const c = await client();
    const latest = await rpcResult(dc.rpcUrl, 'starknet_blockNumber');
    const id = await c.result('starknet_subscribeNewHeads', { block_id: { block_number: 0 } });
    const heads = await c.waitFor(of(id), latest + 1);
    expect(heads.map((n) => n.params.result.block_number)).toEqual([...Array(latest + 1).keys()]);
    const byHash = await c.result('starknet_subscribeNewHeads', [{ block_hash: heads[1]!.params.result.block_hash }]);
    expect((await c.waitFor(of(byHash), latest))[0]!.params.result.block_number).toBe(1);
    const unknown = await c.call('starknet_subscribeNewHeads', { block_id: { block_hash: '0x123' } });
    expect(unknown.error?.code).toBe(24);
    const pending = await c.call('starknet_subscribeNewHeads', { block_id: 'pre_confirmed' });
    expect(pending.error?.code).toBe(-32602);

    // 1,030 blocks on a chain of its own: block 0 is more than 1024 back
    const long = await startDevchain({ port: 0, accounts: 1, mineOnDemand: true });
    try {
      for (let i = 0; i < 1030; i++) await rpcResult(long.rpcUrl, 'devnet_createBlock');
      const lc = await client(long.wsUrl);
      const tooFar = await lc.call('starknet_subscribeNewHeads', { block_id: { block_number: 0 } });
      expect(tooFar.error).toEqual({ code: 68, message: 'Cannot go back more than 1024 blocks' });
      const edge = await lc.result('starknet_subscribeNewHeads', { block_id: { block_number: 1030 - 1024 } });
      expect(await lc.waitFor(of(edge), 1025)).toHaveLength(1025);
    } finally {
      await long.close();
    }
  }, 60_000);

  it('events: from_address and keys filter; replay from block_id; 34 for too many keys', async () => {
    const c = await client();
    const start = (await rpcResult(dc.rpcUrl, 'starknet_blockNumber')) + 1;
    const all = await c.result('starknet_subscribeEvents', {});
    const strk = await c.result('starknet_subscribeEvents', { from_address: STRK, keys: [[TRANSFER]] });
    const eth = await c.result('starknet_subscribeEvents', {
      from_address: '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
    });
    const none = await c.result('starknet_subscribeEvents', { keys: [['0x1234']] });
    const tx = await transfer();
    const got = await c.waitFor((n) => of(strk)(n) && n.params.result.transaction_hash === tx, 2);
    // the transfer and the fee transfer, both STRK Transfer events, accepted on L2
    for (const n of got) {
      expect(n.method).toBe('starknet_subscriptionEvents');
      expect(n.params.result).toMatchObject({
        from_address: STRK,
        keys: [TRANSFER],
        finality_status: 'ACCEPTED_ON_L2',
        block_number: start,
        transaction_hash: tx,
      });
      expect(typeof n.params.result.block_hash).toBe('string');
    }
    await c.waitFor((n) => of(all)(n) && n.params.result.transaction_hash === tx, 2);
    expect(c.notifications.filter(of(eth))).toEqual([]);
    expect(c.notifications.filter(of(none))).toEqual([]);

    // the same events again from block_id
    const replay = await c.result('starknet_subscribeEvents', {
      from_address: STRK,
      block_id: { block_number: start },
    });
    const again = await c.waitFor(of(replay), 2);
    expect(again.map((n) => n.params.result)).toEqual(got.map((n) => n.params.result));

    const tooMany = await c.call('starknet_subscribeEvents', { keys: Array.from({ length: 17 }, () => []) });
    expect(tooMany.error?.code).toBe(34);
  });

  it('transaction status: current status first, then each change until ACCEPTED_ON_L2 (pre-confirmed on an on-demand chain)', async () => {
    const c = await client(onDemand.wsUrl);
    const [a] = await rpcResult(onDemand.rpcUrl, 'devnet_getPredeployedAccounts');
    const t = invokeV3(a.address, transferCalldata(STRK, a.address, 5n), 0n, a.private_key);
    // subscribed before the transaction exists: nothing yet
    const early = await c.result('starknet_subscribeTransactionStatus', { transaction_hash: t.hash });
    await new Promise((r) => setTimeout(r, 100));
    expect(c.notifications.filter(of(early))).toEqual([]);
    await rpcResult(onDemand.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    const received = await c.waitFor(of(early), 2);
    expect(received.map((n) => n.params.result.status.finality_status)).toEqual(['RECEIVED', 'PRE_CONFIRMED']);
    expect(received[1]!.params.result).toEqual({
      transaction_hash: t.hash,
      status: { finality_status: 'PRE_CONFIRMED', execution_status: 'SUCCEEDED' },
    });
    // subscribed while pre-confirmed: that status at once
    const late = await c.result('starknet_subscribeTransactionStatus', [t.hash]);
    expect((await c.waitFor(of(late)))[0]!.params.result.status.finality_status).toBe('PRE_CONFIRMED');
    await rpcResult(onDemand.rpcUrl, 'devnet_createBlock');
    const final = await c.waitFor(of(early), 3);
    expect(final[2]!.params.result.status).toEqual({
      finality_status: 'ACCEPTED_ON_L2',
      execution_status: 'SUCCEEDED',
    });
    await c.waitFor(of(late), 2);
    await rpcResult(onDemand.rpcUrl, 'devnet_createBlock');
    await new Promise((r) => setTimeout(r, 100));
    expect(c.notifications.filter(of(early))).toHaveLength(3);
  });

  it('new transactions and receipts: finality statuses and sender_address filter; 67 for too many addresses', async () => {
    const c = await client(onDemand.wsUrl);
    const [a, b] = await rpcResult(onDemand.rpcUrl, 'devnet_getPredeployedAccounts');
    const allTx = await c.result('starknet_subscribeNewTransactions', {
      finality_status: ['RECEIVED', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
    });
    const fromB = await c.result('starknet_subscribeNewTransactions', { sender_address: [b.address] });
    const receipts = await c.result('starknet_subscribeNewTransactionReceipts', {
      finality_status: ['PRE_CONFIRMED', 'ACCEPTED_ON_L2'],
      sender_address: [a.address],
    });
    const nonceA = BigInt(await rpcResult(onDemand.rpcUrl, 'starknet_getNonce', ['pre_confirmed', a.address]));
    const t = invokeV3(a.address, transferCalldata(STRK, b.address, 7n), nonceA, a.private_key);
    await rpcResult(onDemand.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    await rpcResult(onDemand.rpcUrl, 'devnet_createBlock');
    const txs = await c.waitFor(of(allTx), 3);
    expect(txs.map((n) => n.params.result.finality_status)).toEqual(['RECEIVED', 'PRE_CONFIRMED', 'ACCEPTED_ON_L2']);
    expect(txs[0]!.method).toBe('starknet_subscriptionNewTransaction');
    expect(txs[0]!.params.result).toMatchObject({
      transaction_hash: t.hash,
      type: 'INVOKE',
      sender_address: a.address,
    });
    const rs = await c.waitFor(of(receipts), 2);
    expect(rs.map((n) => n.params.result.finality_status)).toEqual(['PRE_CONFIRMED', 'ACCEPTED_ON_L2']);
    expect(rs[1]!.method).toBe('starknet_subscriptionNewTransactionReceipts');
    expect(rs[1]!.params.result).toMatchObject({ transaction_hash: t.hash, execution_status: 'SUCCEEDED' });
    expect(typeof rs[1]!.params.result.block_hash).toBe('string');
    expect(c.notifications.filter(of(fromB))).toEqual([]);
    const many = Array.from({ length: 1025 }, (_, i) => `0x${(i + 1).toString(16)}`);
    expect((await c.call('starknet_subscribeNewTransactions', { sender_address: many })).error?.code).toBe(67);
    expect(
      (await c.call('starknet_subscribeNewTransactionReceipts', { finality_status: ['ACCEPTED_ON_L1'] })).error?.code,
    ).toBe(-32602);
  });

  it('unsubscribe: true, then no more notifications; 66 for an unknown id or another connection', async () => {
    const c = await client();
    const other = await client();
    const id = await c.result('starknet_subscribeNewHeads');
    await c.waitFor(of(id));
    expect((await other.call('starknet_unsubscribe', { subscription_id: id })).error).toEqual({
      code: 66,
      message: 'Invalid subscription id',
    });
    expect(await c.result('starknet_unsubscribe', [id])).toBe(true);
    expect((await c.call('starknet_unsubscribe', [id])).error?.code).toBe(66);
    await transfer();
    await new Promise((r) => setTimeout(r, 100));
    expect(c.notifications.filter(of(id))).toHaveLength(1);
    // subscriptions are WebSocket only
    const http = await fetch(dc.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'starknet_subscribeNewHeads', params: {} }),
    });
    expect(((await http.json()) as { error: { code: number } }).error.code).toBe(-32601);
  });

  it('a replaced chain (devnet_restart) is a reorg for newHeads, then heads go on from the new chain', async () => {
    const own = await startDevchain({ port: 0, accounts: 2 });
    try {
      const [a, b] = await rpcResult(own.rpcUrl, 'devnet_getPredeployedAccounts');
      const t = invokeV3(a.address, transferCalldata(STRK, b.address, 1n), 0n, a.private_key);
      await rpcResult(own.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
      const c = await client(own.wsUrl);
      const id = await c.result('starknet_subscribeNewHeads', { block_id: { block_number: 0 } });
      const heads = await c.waitFor(of(id), 2);
      await rpcResult(own.rpcUrl, 'devnet_restart');
      const [reorg] = await c.waitFor((n) => of(id)(n) && n.method === 'starknet_subscriptionReorg');
      // genesis is rebuilt the same (same config): block 1 is the one gone
      expect(reorg!.params.result).toEqual({
        starting_block_hash: heads[1]!.params.result.block_hash,
        starting_block_number: 1,
        ending_block_hash: heads[1]!.params.result.block_hash,
        ending_block_number: 1,
      });
      await rpcResult(own.rpcUrl, 'devnet_createBlock');
      const after = (await c.waitFor(of(id), 4)).slice(3);
      expect(after.map((n) => [n.method, n.params.result.block_number])).toEqual([
        ['starknet_subscriptionNewHeads', 1],
      ]);
      expect(after[0]!.params.result.block_hash).not.toBe(heads[1]!.params.result.block_hash);
    } finally {
      await own.close();
    }
  });

  it('every notification sent in these tests matches the spec 0.10 schema of its method', () => {
    const spec = createSpecValidator(
      new URL('../../../../../../shared/fixtures/starknet-specs-0.10.2/api', import.meta.url).pathname,
    );
    const all = clients.flatMap((c) => c.notifications);
    const methods = new Set(all.map((n) => n.method));
    for (const m of [
      'starknet_subscriptionNewHeads',
      'starknet_subscriptionEvents',
      'starknet_subscriptionTransactionStatus',
      'starknet_subscriptionNewTransaction',
      'starknet_subscriptionNewTransactionReceipts',
      'starknet_subscriptionReorg',
    ]) {
      expect(methods.has(m), m).toBe(true);
    }
    for (const n of all) {
      expect(
        spec.checkParams(n.method.slice('starknet_'.length) as never, n.params),
        `${n.method} ${JSON.stringify(n.params).slice(0, 300)}`,
      ).toBeUndefined();
    }
  });
});
