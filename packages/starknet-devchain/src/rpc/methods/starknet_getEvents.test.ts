import { ec, hash, num } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeClasses } from '../../contracts/registry.js';
import { type RunningDevchain, startDevchain } from '../../startDevchain.js';
import { rawRpc, rpcResult } from '../../testing/rpc.js';
import { deployAccountV3, invokeV3 } from '../../testing/signedTx.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const ETH = '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
const TRANSFER = hash.getSelectorFromName('Transfer');
const APPROVAL = hash.getSelectorFromName('Approval');
const EXECUTED = hash.getSelectorFromName('TransactionExecuted');

interface Ev {
  from_address: string;
  keys: string[];
  data: string[];
  transaction_hash: string;
  transaction_index: number;
  event_index: number;
  block_number: number;
  block_hash?: string;
}

let dc: RunningDevchain;
const all: Ev[] = [];
const txHashes: string[] = [];
let latest = 0;

function multicall(calls: [string, string, string[]][]): string[] {
  const out = [num.toHex(calls.length)];
  for (const [to, entry, cd] of calls) out.push(to, hash.getSelectorFromName(entry), num.toHex(cd.length), ...cd);
  return out;
}

/** The spec's semantics, written independently of the server. */
function bruteForce(filter: { address?: string | string[]; keys?: string[][]; from?: number; to?: number }): Ev[] {
  const addrs =
    filter.address === undefined
      ? undefined
      : (Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) => BigInt(a));
  return all.filter((e) => {
    if (filter.from !== undefined && e.block_number < filter.from) return false;
    if (filter.to !== undefined && e.block_number > filter.to) return false;
    if (addrs && addrs.length > 0 && !addrs.includes(BigInt(e.from_address))) return false;
    const keys = [...(filter.keys ?? [])];
    while (keys.length > 0 && keys[keys.length - 1]!.length === 0) keys.pop();
    return keys.every(
      (set, i) => set.length === 0 || (e.keys[i] !== undefined && set.some((k) => BigInt(k) === BigInt(e.keys[i]!))),
    );
  });
}

async function pages(filter: Record<string, unknown>, chunk: number): Promise<{ events: Ev[]; pages: number }> {
  const events: Ev[] = [];
  let token: string | undefined;
  let n = 0;
  do {
    const r = await rpcResult(dc.rpcUrl, 'starknet_getEvents', {
      filter: { ...filter, chunk_size: chunk, ...(token ? { continuation_token: token } : {}) },
    });
    expect(r.events.length).toBeLessThanOrEqual(chunk);
    events.push(...r.events);
    token = r.continuation_token;
    n++;
  } while (token);
  return { events, pages: n };
}

beforeAll(async () => {
  dc = await startDevchain({ port: 0, seed: 3 });
  const accounts: { address: string; private_key: string }[] = await rpcResult(
    dc.rpcUrl,
    'devnet_getPredeployedAccounts',
  );
  // An Argent-style account: its executions emit TransactionExecuted with two keys.
  const ownerPk = '0x5eed';
  const owner = ec.starkCurve.getStarkKey(ownerPk);
  const dep = deployAccountV3(num.toHex(nativeClasses.argentV040.classHash), [owner, '0x0'], owner, ownerPk);
  await rpcResult(dc.rpcUrl, 'devnet_mint', { address: dep.address, amount: 1e21, unit: 'FRI' });
  await rpcResult(dc.rpcUrl, 'devnet_mint', { address: dep.address, amount: 1e21, unit: 'WEI' });
  await rpcResult(dc.rpcUrl, 'starknet_addDeployAccountTransaction', { deploy_account_transaction: dep.tx });
  const senders = [...accounts.slice(0, 3), { address: dep.address, private_key: ownerPk }];
  const nonces = new Map<string, bigint>(senders.map((s) => [s.address, s === senders[3] ? 1n : 0n]));
  for (let i = 0; i < 52; i++) {
    const s = senders[i % senders.length]!;
    const calls: [string, string, string[]][] = [];
    for (let k = 0; k < 16; k++) {
      const to = accounts[(i + k) % accounts.length]!.address;
      calls.push([STRK, 'transfer', [to, num.toHex(k + 1), '0x0']]);
      calls.push([ETH, 'transfer', [to, num.toHex(i + 1), '0x0']]);
      if (k % 2 === 0) calls.push([STRK, 'approve', [to, num.toHex(k), '0x0']]);
    }
    const nonce = nonces.get(s.address)!;
    const t = invokeV3(s.address, multicall(calls), nonce, s.private_key, {
      bounds: {
        l1_gas: { max_amount: 0n, max_price_per_unit: 2n * 10n ** 9n },
        l2_gas: { max_amount: 10n ** 7n, max_price_per_unit: 2n * 10n ** 9n },
        l1_data_gas: { max_amount: 10n ** 4n, max_price_per_unit: 2n * 10n ** 9n },
      },
    });
    nonces.set(s.address, nonce + 1n);
    const r = await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
    txHashes.push(r.transaction_hash);
  }
  latest = await rpcResult(dc.rpcUrl, 'starknet_blockNumber');
  for (let b = 0; b <= latest; b++) {
    const block = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithReceipts', { block_id: { block_number: b } });
    block.transactions.forEach((t: any, ti: number) => {
      t.receipt.events.forEach((e: any, ei: number) => {
        all.push({
          ...e,
          transaction_hash: t.receipt.transaction_hash,
          transaction_index: ti,
          event_index: ei,
          block_number: b,
          block_hash: block.block_hash,
        });
      });
    });
  }
}, 170_000);

afterAll(async () => {
  await dc.close();
});

describe('starknet_getEvents', () => {
  it('holds more than 2,000 events', () => {
    expect(all.length).toBeGreaterThan(2000);
  });

  const filters: [string, Record<string, unknown>, Parameters<typeof bruteForce>[0]][] = [
    ['no filter', {}, {}],
    ['single address', { address: STRK }, { address: STRK }],
    ['address array', { address: [ETH, STRK.replace('0x', '0x000')] }, { address: [ETH, STRK] }],
    ['empty address array', { address: [] }, { address: [] }],
    ['one key position', { keys: [[APPROVAL]] }, { keys: [[APPROVAL]] }],
    ['OR within a position', { keys: [[APPROVAL, EXECUTED]] }, { keys: [[APPROVAL, EXECUTED]] }],
    ['wildcard then a value', { keys: [[], []] }, { keys: [[], []] }],
    ['two positions', { keys: [[EXECUTED], []] }, { keys: [[EXECUTED], []] }],
    ['second position must exist', { keys: [[], [TRANSFER, '0x1']] }, { keys: [[], [TRANSFER, '0x1']] }],
    ['address and keys', { address: STRK, keys: [[TRANSFER]] }, { address: STRK, keys: [[TRANSFER]] }],
  ];

  for (const [name, filter, brute] of filters) {
    it(`pages match a brute-force filter: ${name}`, async () => {
      const expected = bruteForce(brute);
      for (const chunk of [37, 1024]) {
        const got = await pages({ ...filter, from_block: { block_number: 0 }, to_block: 'latest' }, chunk);
        expect(got.events).toEqual(expected);
      }
    });
  }

  it('block ranges by number, hash and tag, and a two-key filter on one transaction', async () => {
    const mid = Math.floor(latest / 2);
    const midBlock = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: { block_number: mid } });
    const r = await pages({ from_block: { block_hash: midBlock.block_hash }, to_block: { block_number: mid + 5 } }, 50);
    expect(r.events).toEqual(bruteForce({ from: mid, to: mid + 5 }));
    const last = await pages({ from_block: 'latest', to_block: 'pre_confirmed' }, 1024);
    expect(last.events).toEqual(bruteForce({ from: latest }));
    const argentTx = all.find((e) => e.keys[0] === EXECUTED)!;
    const one = await pages(
      { from_block: { block_number: 0 }, to_block: 'latest', keys: [[EXECUTED], [argentTx.keys[1]!]] },
      1,
    );
    expect(one.events).toEqual([argentTx]);
    const empty = await rpcResult(dc.rpcUrl, 'starknet_getEvents', {
      filter: { from_block: { block_number: 5 }, to_block: { block_number: 2 }, chunk_size: 10 },
    });
    expect(empty).toEqual({ events: [] });
  });

  it('chunk_size 1 walks every event of a narrow filter', async () => {
    const expected = bruteForce({ address: STRK, keys: [[APPROVAL]], from: 0, to: 20 });
    const got = await pages(
      { address: STRK, keys: [[APPROVAL]], from_block: { block_number: 0 }, to_block: { block_number: 20 } },
      1,
    );
    expect(got.events).toEqual(expected);
    expect(got.pages).toBe(expected.length);
  });

  it('errors 31, 33, 34 and 24', async () => {
    const q = (filter: Record<string, unknown>) =>
      rawRpc(dc.rpcUrl, 'starknet_getEvents', {
        filter: { from_block: { block_number: 0 }, to_block: 'latest', chunk_size: 10, ...filter },
      });
    expect((await q({ chunk_size: 1025 })).error?.code).toBe(31);
    expect((await q({ keys: Array.from({ length: 17 }, () => [TRANSFER]) })).error?.code).toBe(34);
    expect((await q({ keys: Array.from({ length: 16 }, () => []) })).result?.events).toHaveLength(10);
    expect((await q({ continuation_token: 'garbage' })).error?.code).toBe(33);
    expect((await q({ continuation_token: '999999-0' })).error?.code).toBe(33);
    expect((await q({ continuation_token: '1-99999' })).error?.code).toBe(33);
    expect((await q({ to_block: { block_number: 999_999 } })).error?.code).toBe(24);
  });
});
