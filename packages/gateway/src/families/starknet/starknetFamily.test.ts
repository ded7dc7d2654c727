import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Account, CallData, ec, hash, RpcProvider, stark, uint256 } from 'starknet';
import { syntheticClass } from '@nodegate/starknet-devchain/testing';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../test-support/startTestGateway.js';
import { type StarknetTestGateway, startStarknetTestGateway } from '../../test-support/startStarknetTestGateway.js';

const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
let t: StarknetTestGateway;
let provider: RpcProvider;
let funder: Account;
const made: { deployHash?: string; declareHash?: string; classHash?: string; transferHash?: string; account?: string } =
  {};

async function call(url: string, method: string, params: unknown, id: unknown = 1): Promise<any> {
  return (await postJson(url, { jsonrpc: '2.0', id, method, params })).json;
}
const direct = async (method: string, params: unknown) =>
  (await call(t.directUrl, `starknet_${method}`, params)).result;

/** The interface's shapes, written out here from the spec answer (independently of the gateway code). */
function expectedSeedBlock(b: any) {
  if (b.block_hash === undefined) {
    const { block_number: _n, ...rest } = b;
    return { ...rest, status: 'PENDING' };
  }
  return b;
}
function expectedSeedReceipt(r: any) {
  return { ...r, status: r.block_hash === undefined ? 'PENDING' : r.finality_status };
}

/** A fresh key whose OZ-style account address is funded with 1 STRK (not deployed yet). */
async function fundNewKey() {
  const privateKey = stark.randomAddress();
  const publicKey = ec.starkCurve.getStarkKey(privateKey);
  const classHash = await provider.getClassHashAt(funder.address);
  const ctor = CallData.compile({ publicKey });
  const address = hash.calculateContractAddressFromHash(publicKey, classHash, ctor, 0);
  const fund = await funder.execute({
    contractAddress: STRK,
    entrypoint: 'transfer',
    calldata: CallData.compile({ recipient: address, amount: uint256.bnToUint256(10n ** 18n) }),
  });
  await provider.waitForTransaction(fund.transaction_hash, { retryInterval: 50 });
  return { privateKey, publicKey, classHash, ctor, address };
}

beforeAll(async () => {
  t = await startStarknetTestGateway();
  // starknet.js pointed at the gateway URL, unchanged.
  provider = await RpcProvider.create({ nodeUrl: t.rpcUrl });
  const accounts = (await call(t.rpcUrl, 'devnet_getPredeployedAccounts', {})).result;
  funder = new Account({ provider, address: accounts[0].address, signer: accounts[0].private_key });

  // A deterministic little history: fund a new key, deploy an account there, transfer, declare.
  const { privateKey, publicKey, classHash, ctor, address } = await fundNewKey();
  const account = new Account({ provider, address, signer: privateKey });
  const dep = await account.deployAccount({
    classHash,
    constructorCalldata: ctor,
    addressSalt: publicKey,
    contractAddress: address,
  });
  expect(BigInt(dep.contract_address)).toBe(BigInt(address));
  await provider.waitForTransaction(dep.transaction_hash, { retryInterval: 50 });
  const tr = await account.execute({
    contractAddress: STRK,
    entrypoint: 'transfer',
    calldata: CallData.compile({ recipient: funder.address, amount: uint256.bnToUint256(777n) }),
  });
  await provider.waitForTransaction(tr.transaction_hash, { retryInterval: 50 });
  const decl = await funder.declare({
    contract: syntheticClass('gateway-test').contract as any,
    compiledClassHash: '0x1234',
  });
  await provider.waitForTransaction(decl.transaction_hash, { retryInterval: 50 });
  Object.assign(made, {
    deployHash: dep.transaction_hash,
    declareHash: decl.transaction_hash,
    classHash: decl.class_hash,
    transferHash: tr.transaction_hash,
    account: address,
  });
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('stk_ seed methods: seed shapes; starknet_ aliases: spec shapes; both equal the dev chain', () => {
  it('stk_getBlockWithTxs for every block id form', async () => {
    const receipt = await direct('getTransactionReceipt', { transaction_hash: made.transferHash });
    const ids = [
      { block_number: receipt.block_number },
      { block_hash: receipt.block_hash },
      'latest',
      { block_number: 0 },
    ];
    for (const block_id of ids) {
      const seed = (await call(t.rpcUrl, 'stk_getBlockWithTxs', { block_id })).result;
      const spec = (await call(t.rpcUrl, 'starknet_getBlockWithTxs', { block_id })).result;
      const raw = await direct('getBlockWithTxs', { block_id });
      expect(spec).toEqual(raw);
      expect(seed).toEqual(expectedSeedBlock(raw));
      expect(seed.status).toBe('ACCEPTED_ON_L2');
      for (const k of [
        'block_hash',
        'parent_hash',
        'block_number',
        'new_root',
        'timestamp',
        'sequencer_address',
        'starknet_version',
        'transactions',
      ]) {
        expect(seed, k).toHaveProperty(k);
      }
      expect(Object.keys(seed.l1_gas_price).sort()).toEqual(['price_in_fri', 'price_in_wei']);
    }
    const byNumber = (await call(t.rpcUrl, 'stk_getBlockWithTxs', { block_id: { block_number: receipt.block_number } }))
      .result;
    expect(byNumber.transactions.map((x: any) => x.transaction_hash)).toContain(made.transferHash);
  });

  it('the pending block: stk_ maps "pending" to pre_confirmed and answers PENDING without hash, number or root', async () => {
    const seed = (await call(t.rpcUrl, 'stk_getBlockWithTxs', { block_id: 'pending' })).result;
    const raw = await direct('getBlockWithTxs', { block_id: 'pre_confirmed' });
    expect(raw.block_number).toBeTypeOf('number');
    const { timestamp: _a, ...seedRest } = seed;
    const { timestamp: _b, ...expectedRest } = expectedSeedBlock(raw);
    expect(seedRest).toEqual(expectedRest);
    expect(seed.status).toBe('PENDING');
    for (const k of ['block_hash', 'block_number', 'new_root']) expect(seed).not.toHaveProperty(k);
    const alias = (await call(t.rpcUrl, 'starknet_getBlockWithTxs', { block_id: 'pre_confirmed' })).result;
    expect(alias.block_number).toBe(raw.block_number);
    expect(alias).not.toHaveProperty('status');
  });

  it('stk_getTransactionReceipt carries status, actual_fee, block_hash, block_number, messages_sent, events', async () => {
    for (const h of [made.deployHash, made.transferHash, made.declareHash]) {
      const seed = (await call(t.rpcUrl, 'stk_getTransactionReceipt', { transaction_hash: h })).result;
      const raw = await direct('getTransactionReceipt', { transaction_hash: h });
      expect((await call(t.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: h })).result).toEqual(raw);
      expect(seed).toEqual(expectedSeedReceipt(raw));
      expect(seed.status).toBe('ACCEPTED_ON_L2');
      for (const k of ['transaction_hash', 'actual_fee', 'block_hash', 'block_number', 'messages_sent', 'events']) {
        expect(seed, k).toHaveProperty(k);
      }
    }
  });

  it('stk_getTransactionByBlockIdAndIndex, stk_getClass (positional params too)', async () => {
    const r = await direct('getTransactionReceipt', { transaction_hash: made.transferHash });
    const named = (
      await call(t.rpcUrl, 'stk_getTransactionByBlockIdAndIndex', { block_id: { block_hash: r.block_hash }, index: 0 })
    ).result;
    const positional = (await call(t.rpcUrl, 'stk_getTransactionByBlockIdAndIndex', [{ block_hash: r.block_hash }, 0]))
      .result;
    expect(named).toEqual(
      await direct('getTransactionByBlockIdAndIndex', { block_id: { block_hash: r.block_hash }, index: 0 }),
    );
    expect(positional).toEqual(named);
    expect(named.transaction_hash).toBe(made.transferHash);
    const cls = (await call(t.rpcUrl, 'stk_getClass', { block_id: 'latest', class_hash: made.classHash })).result;
    expect(cls).toEqual(await direct('getClass', { block_id: 'latest', class_hash: made.classHash }));
    expect(typeof cls.abi).toBe('string');
    expect(cls.contract_class_version).toBe('0.1.0');
    expect(Object.keys(cls.entry_points_by_type).sort()).toEqual(['CONSTRUCTOR', 'EXTERNAL', 'L1_HANDLER']);
    expect(hash.computeSierraContractClassHash({ ...cls, abi: JSON.parse(cls.abi) })).toBe(made.classHash);
  });

  it('stk_addDeployAccountTransaction and stk_addDeclareTransaction return the add shapes', async () => {
    // Submit starknet.js-signed payloads through the stk_ names by catching what starknet.js would send.
    const { privateKey, publicKey, classHash, ctor, address } = await fundNewKey();
    const captured: Record<string, any> = {};
    const capturing = new RpcProvider({
      nodeUrl: t.rpcUrl,
      baseFetch: async (url: any, init: any) => {
        const body = JSON.parse(init.body);
        if (
          body.method === 'starknet_addDeployAccountTransaction' ||
          body.method === 'starknet_addDeclareTransaction'
        ) {
          captured[body.method] = body.params;
          body.method = body.method.replace('starknet_', 'stk_');
          const res = await fetch(url, { ...init, body: JSON.stringify(body) });
          const json: any = await res.clone().json();
          captured[`${body.method}:result`] = json.result;
          return res;
        }
        return fetch(url, init);
      },
    } as any);
    const account = new Account({ provider: capturing, address, signer: privateKey });
    const dep = await account.deployAccount({
      classHash,
      constructorCalldata: ctor,
      addressSalt: publicKey,
      contractAddress: address,
    });
    expect(captured['stk_addDeployAccountTransaction:result']).toEqual({
      transaction_hash: dep.transaction_hash,
      contract_address: dep.contract_address,
    });
    expect(captured.starknet_addDeployAccountTransaction.deploy_account_transaction.type).toBe('DEPLOY_ACCOUNT');
    await provider.waitForTransaction(dep.transaction_hash, { retryInterval: 50 });
    const decl = await account.declare({
      contract: syntheticClass('stk-declare').contract as any,
      compiledClassHash: '0x99',
    });
    expect(captured['stk_addDeclareTransaction:result']).toEqual({
      transaction_hash: decl.transaction_hash,
      class_hash: decl.class_hash,
    });
    await provider.waitForTransaction(decl.transaction_hash, { retryInterval: 50 });
  });
});

describe('stk_getEvents', () => {
  it('pages with continuation tokens until none is left; pages equal the dev chain pages', async () => {
    const filter = {
      from_block: { block_number: 0 },
      to_block: 'latest',
      address: STRK,
      keys: [[hash.getSelectorFromName('Transfer')]],
      chunk_size: 2,
    };
    const seen: any[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const f = token ? { ...filter, continuation_token: token } : filter;
      const page = (await call(t.rpcUrl, 'stk_getEvents', { filter: f })).result;
      expect(page).toEqual(await direct('getEvents', { filter: f }));
      expect(page.events.length).toBeLessThanOrEqual(2);
      seen.push(...page.events);
      token = page.continuation_token;
      pages++;
    } while (token !== undefined && pages < 100);
    expect(pages).toBeGreaterThan(1);
    const all = (await direct('getEvents', { filter: { ...filter, chunk_size: 1000 } })).events;
    expect(seen).toEqual(all);
    for (const e of seen) {
      for (const k of ['block_hash', 'block_number', 'transaction_hash', 'from_address', 'keys', 'data'])
        expect(e, k).toHaveProperty(k);
    }
    expect(seen.map((e) => e.transaction_hash)).toContain(made.transferHash);
  });

  it('bare tags for from_block/to_block, "pending" included', async () => {
    const res = await call(t.rpcUrl, 'stk_getEvents', {
      filter: { from_block: 'latest', to_block: 'pending', chunk_size: 10 },
    });
    expect(res.error).toBeUndefined();
    expect(Array.isArray(res.result.events)).toBe(true);
  });

  it('starknet.js getEvents without from_block and to_block (optional in spec 0.10): the dev chain answer, every block', async () => {
    // it was refused at the gateway: -32602 filter.from_block: expected a block id (required)
    const page = await provider.getEvents({ address: STRK, chunk_size: 1000 });
    const all = await direct('getEvents', {
      filter: { from_block: { block_number: 0 }, to_block: 'pre_confirmed', address: STRK, chunk_size: 1000 },
    });
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.events).toEqual(all.events);
    expect(page.events.map((e) => e.transaction_hash)).toContain(made.transferHash);
  });
});

describe('bad input is refused before any upstream call, with exact codes', () => {
  const F = { from_block: 'latest', to_block: 'latest' };
  const rows: Array<[string, string, unknown, number, RegExp?]> = [
    ['missing chunk_size', 'stk_getEvents', { filter: F }, -32602, /filter\.chunk_size/],
    ['chunk_size 0', 'stk_getEvents', { filter: { ...F, chunk_size: 0 } }, -32602, /filter\.chunk_size/],
    ['chunk_size 100000', 'stk_getEvents', { filter: { ...F, chunk_size: 100000 } }, 31, /page size is too big/],
    ['chunk_size a string', 'stk_getEvents', { filter: { ...F, chunk_size: '10' } }, -32602],
    [
      'missing chunk_size (from_block and to_block are optional)',
      'stk_getEvents',
      { filter: { to_block: 'latest' } },
      -32602,
      /filter\.chunk_size: expected a value \(required\)/,
    ],
    [
      'bad felt in keys',
      'stk_getEvents',
      { filter: { ...F, chunk_size: 1, keys: [['0xzz']] } },
      -32602,
      /filter\.keys\[0\]\[0\]/,
    ],
    [
      'bad felt address',
      'stk_getEvents',
      { filter: { ...F, chunk_size: 1, address: 'abc' } },
      -32602,
      /filter\.address/,
    ],
    ['felt too big', 'stk_getClass', { block_id: 'latest', class_hash: `0x${'f'.repeat(64)}` }, -32602, /class_hash/],
    ['unknown tag', 'stk_getBlockWithTxs', { block_id: 'earliest' }, -32602, /block_id/],
    ['block id as a bare number', 'stk_getBlockWithTxs', { block_id: 5 }, -32602, /block_id/],
    [
      'block_number as hex string',
      'stk_getBlockWithTxs',
      { block_id: { block_number: '0x5' } },
      -32602,
      /block_id\.block_number/,
    ],
    ['missing block_id', 'stk_getBlockWithTxs', {}, -32602, /block_id/],
    ['unknown param', 'stk_getBlockWithTxs', { block_id: 'latest', extra: 1 }, -32602, /no param "extra"/],
    ['negative index', 'stk_getTransactionByBlockIdAndIndex', { block_id: 'latest', index: -1 }, -32602, /index/],
    ['receipt hash not a felt', 'stk_getTransactionReceipt', { transaction_hash: 'x' }, -32602, /transaction_hash/],
    ['deploy tx not an object', 'stk_addDeployAccountTransaction', { deploy_account_transaction: 'x' }, -32602],
    [
      'deploy tx missing class_hash',
      'stk_addDeployAccountTransaction',
      {
        deploy_account_transaction: {
          type: 'DEPLOY_ACCOUNT',
          version: '0x3',
          signature: [],
          nonce: '0x0',
          contract_address_salt: '0x1',
          constructor_calldata: [],
          resource_bounds: {},
          tip: '0x0',
          paymaster_data: [],
          nonce_data_availability_mode: 'L1',
          fee_data_availability_mode: 'L1',
        },
      },
      -32602,
      /deploy_account_transaction\.class_hash: expected a value \(required\)/,
    ],
    [
      'declare tx wrong type',
      'stk_addDeclareTransaction',
      { declare_transaction: { type: 'INVOKE', version: '0x3' } },
      -32602,
      /type/,
    ],
    ['unknown method', 'stk_getEverything', {}, -32601],
    ['eth method on a Starknet network', 'eth_blockNumber', [], -32601],
  ];
  for (const [name, method, params, code, message] of rows) {
    it(name, async () => {
      const res = await call(t.rpcUrl, method, params, name);
      expect(res.id).toBe(name);
      expect(res.error?.code).toBe(code);
      if (message) expect(res.error.message).toMatch(message);
      expect(res.error.message).not.toContain(t.directUrl);
    });
  }

  it('upstream errors keep their spec code, message and data', async () => {
    const res = await call(t.rpcUrl, 'stk_getTransactionReceipt', { transaction_hash: '0x1234' });
    const raw = await call(t.directUrl, 'starknet_getTransactionReceipt', { transaction_hash: '0x1234' });
    expect(res.error).toEqual(raw.error);
    expect(res.error.code).toBe(29);
    const block = await call(t.rpcUrl, 'stk_getBlockWithTxs', { block_id: { block_number: 999999 } });
    expect(block.error.code).toBe(24);
  });
});

describe('dev methods, WebSocket, older upstreams', () => {
  it('devnet_* pass on the dev network and are refused on a production network', async () => {
    const minted = await call(t.rpcUrl, 'devnet_mint', { address: made.account, amount: 1000, unit: 'FRI' });
    expect(minted.error).toBeUndefined();
    expect(minted.result.unit).toBe('FRI');
    const refused = await call(t.prodRpcUrl, 'devnet_mint', { address: made.account, amount: 1000, unit: 'FRI' });
    expect(refused.error.code).toBe(-32601);
    expect((await call(t.prodRpcUrl, 'stk_chainId', {})).result).toBe('0x534e5f5345504f4c4941');
  });

  it('serves the same methods over WebSocket', async () => {
    const ws = new WebSocket(t.wsUrl);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answer = new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(d.toString()))));
    ws.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'stk_getTransactionReceipt',
        params: { transaction_hash: made.transferHash },
      }),
    );
    const m = await answer;
    expect(m.id).toBe(9);
    expect(m.result).toEqual(
      expectedSeedReceipt(await direct('getTransactionReceipt', { transaction_hash: made.transferHash })),
    );
    ws.close();
  });

  it('sends "pending" to an upstream older than spec 0.9 (detected at startup)', async () => {
    const received: any[] = [];
    const old: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const msg = JSON.parse(body);
        received.push(msg);
        const result =
          msg.method === 'starknet_specVersion'
            ? '0.7.1'
            : { status: 'ACCEPTED_ON_L2', block_hash: '0x1', transactions: [] };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      });
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', () => r()));
    const oldGw = await startStarknetTestGateway([
      {
        name: 'old',
        family: 'starknet',
        pathPrefix: '/old',
        upstreams: [{ name: 'old', http: `http://127.0.0.1:${(old.address() as AddressInfo).port}` }],
      },
    ]);
    try {
      const url = `${oldGw.gw.networks.old!.http}/v3/${oldGw.key}`;
      await call(url, 'stk_getBlockWithTxs', { block_id: 'pending' });
      await call(url, 'starknet_getBlockWithTxs', { block_id: 'pre_confirmed' });
      const calls = received.filter((m) => m.method === 'starknet_getBlockWithTxs');
      expect(calls.map((c) => c.params.block_id)).toEqual(['pending', 'pending']);
    } finally {
      await oldGw.stop();
      old.close();
    }
  });
});
