import { num } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeClasses } from '../../contracts/registry.js';
import { type RunningDevchain, startDevchain } from '../../startDevchain.js';
import { rawRpc, rpcResult } from '../../testing/rpc.js';
import {
  bounds3,
  declareV2,
  declareV3,
  deployAccountV1,
  deployAccountV3TwoBounds,
  invokeV1,
  invokeV3,
  invokeV3TwoBounds,
  transferCalldata,
} from '../../testing/signedTx.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const ETH = '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

let dc: RunningDevchain;
let a0: { address: string; private_key: string };
let a1: { address: string; private_key: string };

async function nonceOf(address: string): Promise<bigint> {
  return BigInt(await rpcResult(dc.rpcUrl, 'starknet_getNonce', { block_id: 'latest', contract_address: address }));
}

async function balance(token: string, address: string): Promise<bigint> {
  const r = await rpcResult(dc.rpcUrl, 'starknet_call', {
    request: {
      contract_address: token,
      entry_point_selector: num.toHex(BigInt('0x2e4263afad30923c891518314c3c95dbe830a16874e8abc5777a9a20b54c76e')),
      calldata: [address],
    },
    block_id: 'latest',
  });
  return BigInt(r[0]) + (BigInt(r[1]) << 128n);
}

async function add(tx: unknown) {
  return rawRpc(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: tx });
}

beforeAll(async () => {
  dc = await startDevchain({ port: 0, seed: 7 });
  const accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  a0 = accounts[0];
  a1 = accounts[1];
});

afterAll(async () => {
  await dc.close();
});

describe('older transaction shapes', () => {
  it('accepts INVOKE v1 with max_fee, charging ETH (WEI) with the ETH Transfer event last', async () => {
    const before = await balance(ETH, a0.address);
    const t = invokeV1(
      a0.address,
      transferCalldata(STRK, a1.address, 5n),
      await nonceOf(a0.address),
      10n ** 16n,
      a0.private_key,
    );
    const r = await add(t.tx);
    expect(r.result?.transaction_hash).toBe(t.hash);
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t.hash });
    expect(receipt.actual_fee.unit).toBe('WEI');
    expect(receipt.execution_status).toBe('SUCCEEDED');
    const last = receipt.events[receipt.events.length - 1];
    expect(last.from_address).toBe(ETH);
    expect(BigInt(last.data[2])).toBe(BigInt(receipt.actual_fee.amount));
    expect(await balance(ETH, a0.address)).toBe(before - BigInt(receipt.actual_fee.amount));
    const tx = await rpcResult(dc.rpcUrl, 'starknet_getTransactionByHash', { transaction_hash: t.hash });
    expect(tx).toMatchObject({ type: 'INVOKE', version: '0x1', max_fee: num.toHex(10n ** 16n) });
  });

  it('accepts INVOKE v3 with only l1_gas and l2_gas bounds', async () => {
    const b = {
      l1_gas: { max_amount: 2_000_000n, max_price_per_unit: 2n * 10n ** 9n },
      l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
    };
    const t = invokeV3TwoBounds(
      a0.address,
      transferCalldata(STRK, a1.address, 5n),
      await nonceOf(a0.address),
      a0.private_key,
      b,
    );
    const r = await add(t.tx);
    expect(r.result?.transaction_hash).toBe(t.hash);
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t.hash });
    expect(receipt.execution_status).toBe('SUCCEEDED');
    expect(receipt.execution_resources.l2_gas).toBe(0);
    expect(BigInt(receipt.actual_fee.amount)).toBe(BigInt(receipt.execution_resources.l1_gas) * 10n ** 9n);
  });

  it('accepts DEPLOY_ACCOUNT v1 and DECLARE v2', async () => {
    const cls = num.toHex(nativeClasses.ozAccount.classHash);
    const pk = '0xabcdef123';
    const { ec } = await import('starknet');
    const pub = ec.starkCurve.getStarkKey(pk);
    const d = deployAccountV1(cls, [pub], pub, 10n ** 16n, pk);
    const minted = await rpcResult(dc.rpcUrl, 'devnet_mint', { address: d.address, amount: 1e18, unit: 'WEI' });
    expect(minted.new_balance).toBe('1000000000000000000');
    expect(await balance(ETH, d.address)).toBe(10n ** 18n);
    const r = await rawRpc(dc.rpcUrl, 'starknet_addDeployAccountTransaction', { deploy_account_transaction: d.tx });
    expect(r.result).toEqual({ transaction_hash: d.hash, contract_address: d.address });
    const decl = declareV2(a0.address, 'declare-v2', await nonceOf(a0.address), 10n ** 16n, a0.private_key);
    const r2 = await rawRpc(dc.rpcUrl, 'starknet_addDeclareTransaction', { declare_transaction: decl.tx });
    expect(r2.result).toEqual({ transaction_hash: decl.hash, class_hash: decl.classHash });
  });
});

describe('older transaction shapes (continued)', () => {
  it('accepts DEPLOY_ACCOUNT v3 with only l1_gas and l2_gas bounds (all gas accounted as L1 gas)', async () => {
    const { ec } = await import('starknet');
    const pk = '0x2b0b';
    const pub = ec.starkCurve.getStarkKey(pk);
    const b = {
      l1_gas: { max_amount: 2_000_000n, max_price_per_unit: 2n * 10n ** 9n },
      l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
    };
    const d = deployAccountV3TwoBounds(num.toHex(nativeClasses.argentV030.classHash), [pub, '0x0'], pub, pk, b);
    await rpcResult(dc.rpcUrl, 'devnet_mint', { address: d.address, amount: 1e18, unit: 'FRI' });
    const r = await rawRpc(dc.rpcUrl, 'starknet_addDeployAccountTransaction', { deploy_account_transaction: d.tx });
    expect(r.result).toEqual({ transaction_hash: d.hash, contract_address: d.address });
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: d.hash });
    expect(receipt.execution_resources).toEqual({ l1_gas: 900_000 + 2 * 5_000 + 224, l1_data_gas: 0, l2_gas: 0 });
    expect(BigInt(receipt.actual_fee.amount)).toBe(BigInt(receipt.execution_resources.l1_gas) * 10n ** 9n);
    expect(await balance(STRK, d.address)).toBe(10n ** 18n - BigInt(receipt.actual_fee.amount));
  });

  it('rejects unsupported class versions (62) and oversized classes (57)', async () => {
    const decl = declareV3(a0.address, 'bad-version', await nonceOf(a0.address), a0.private_key);
    const bad = { ...decl.tx, contract_class: { ...decl.tx.contract_class, contract_class_version: '0.0.1' } };
    expect((await rawRpc(dc.rpcUrl, 'starknet_addDeclareTransaction', { declare_transaction: bad })).error?.code).toBe(
      62,
    );
    const big = {
      ...decl.tx,
      contract_class: { ...decl.tx.contract_class, sierra_program: Array.from({ length: 81_291 }, () => '0x1') },
    };
    expect((await rawRpc(dc.rpcUrl, 'starknet_addDeclareTransaction', { declare_transaction: big })).error?.code).toBe(
      57,
    );
  });
});

describe('execution outcomes', () => {
  it('a transfer above balance is REVERTED with a reason and the fee still charged', async () => {
    const before = await balance(STRK, a1.address);
    const nonce = await nonceOf(a1.address);
    const t = invokeV3(a1.address, transferCalldata(STRK, a0.address, 10n ** 30n), nonce, a1.private_key);
    expect((await add(t.tx)).result?.transaction_hash).toBe(t.hash);
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t.hash });
    expect(receipt.execution_status).toBe('REVERTED');
    expect(receipt.revert_reason).toMatch(/insufficient balance/);
    expect(receipt.events).toHaveLength(1);
    expect(await balance(STRK, a1.address)).toBe(before - BigInt(receipt.actual_fee.amount));
    expect(await nonceOf(a1.address)).toBe(nonce + 1n);
    const status = await rpcResult(dc.rpcUrl, 'starknet_getTransactionStatus', { transaction_hash: t.hash });
    expect(status).toMatchObject({ finality_status: 'ACCEPTED_ON_L2', execution_status: 'REVERTED' });
  });

  it('estimateFee with a query version and SKIP_VALIDATE equals the fee then charged', async () => {
    const nonce = await nonceOf(a0.address);
    const calldata = transferCalldata(STRK, a1.address, 123n);
    const q = invokeV3(a0.address, calldata, nonce, a0.private_key, { version: '0x100000000000000000000000000000003' });
    const est = await rpcResult(dc.rpcUrl, 'starknet_estimateFee', {
      request: [{ ...q.tx, signature: [] }],
      simulation_flags: ['SKIP_VALIDATE'],
      block_id: 'pre_confirmed',
    });
    // Without SKIP_VALIDATE the query-version signature is checked too.
    const est2 = await rpcResult(dc.rpcUrl, 'starknet_estimateFee', {
      request: [q.tx],
      simulation_flags: [],
      block_id: 'latest',
    });
    expect(est2).toEqual(est);
    // add* rejects query versions.
    expect((await add(q.tx)).error?.code).toBe(61);
    const t = invokeV3(a0.address, calldata, nonce, a0.private_key);
    await add(t.tx);
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t.hash });
    expect(est[0].overall_fee).toBe(receipt.actual_fee.amount);
    expect(est[0].unit).toBe('FRI');
  });
});

describe('tips', () => {
  it('charges l2_gas * (l2 price + tip) and includes the tip in the hash', async () => {
    const nonce = await nonceOf(a0.address);
    const t = invokeV3(a0.address, transferCalldata(STRK, a1.address, 1n), nonce, a0.private_key, { tip: 1000n });
    expect((await add(t.tx)).result?.transaction_hash).toBe(t.hash);
    const r = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t.hash });
    const g = r.execution_resources;
    expect(BigInt(r.actual_fee.amount)).toBe(
      BigInt(g.l1_gas) * 10n ** 9n + BigInt(g.l1_data_gas) * 10n ** 9n + BigInt(g.l2_gas) * (10n ** 9n + 1000n),
    );
    const tx = await rpcResult(dc.rpcUrl, 'starknet_getTransactionByHash', { transaction_hash: t.hash });
    expect(tx.tip).toBe('0x3e8');
  });
});

describe('spec error codes', () => {
  it('52 invalid nonce, 53 resources, 54 balance, 55 signature, 58 non-account, 59 duplicate, 61 version', async () => {
    const nonce = await nonceOf(a0.address);
    const cd = transferCalldata(STRK, a1.address, 1n);
    const e52 = await add(invokeV3(a0.address, cd, nonce + 5n, a0.private_key).tx);
    expect(e52.error?.code).toBe(52);
    expect(typeof e52.error?.data).toBe('string');
    const e53 = await add(invokeV3(a0.address, cd, nonce, a0.private_key, { bounds: bounds3(1000n) }).tx);
    expect(e53.error?.code).toBe(53);
    const e54 = await add(
      invokeV3(a0.address, cd, nonce, a0.private_key, { bounds: bounds3(10n ** 13n, 10n ** 12n) }).tx,
    );
    expect(e54.error?.code).toBe(54);
    const e55 = await add(invokeV3(a0.address, cd, nonce, a1.private_key).tx);
    expect(e55.error?.code).toBe(55);
    const e58 = await add(invokeV3(STRK, cd, 0n, a0.private_key).tx);
    expect(e58.error?.code).toBe(58);
    const ok = invokeV3(a0.address, cd, nonce, a0.private_key);
    expect((await add(ok.tx)).result?.transaction_hash).toBe(ok.hash);
    expect((await add(ok.tx)).error?.code).toBe(59);
    const e61 = await add({ ...ok.tx, version: '0x2' });
    expect(e61.error?.code).toBe(61);
  });

  it('51 class already declared', async () => {
    const d1 = declareV3(a0.address, 'twice', await nonceOf(a0.address), a0.private_key);
    expect(
      (await rawRpc(dc.rpcUrl, 'starknet_addDeclareTransaction', { declare_transaction: d1.tx })).result?.class_hash,
    ).toBe(d1.classHash);
    const d2 = declareV3(a0.address, 'twice', await nonceOf(a0.address), a0.private_key);
    expect(
      (await rawRpc(dc.rpcUrl, 'starknet_addDeclareTransaction', { declare_transaction: d2.tx })).error?.code,
    ).toBe(51);
  });

  it('20, 21, 24, 27, 28, 29, 40, 41 on reads', async () => {
    const url = dc.rpcUrl;
    expect(
      (await rawRpc(url, 'starknet_getNonce', { block_id: 'latest', contract_address: '0x123' })).error?.code,
    ).toBe(20);
    const call = (sel: string, calldata: string[] = []) =>
      rawRpc(url, 'starknet_call', {
        request: { contract_address: STRK, entry_point_selector: sel, calldata },
        block_id: 'latest',
      });
    expect((await call('0x1234')).error?.code).toBe(21);
    const e40 = await call('0x2e4263afad30923c891518314c3c95dbe830a16874e8abc5777a9a20b54c76e');
    expect(e40.error?.code).toBe(40);
    expect(e40.error?.data).toHaveProperty('revert_error');
    expect(
      (await rawRpc(url, 'starknet_getBlockWithTxHashes', { block_id: { block_number: 10_000 } })).error?.code,
    ).toBe(24);
    expect(
      (await rawRpc(url, 'starknet_getBlockWithTxHashes', { block_id: { block_hash: '0x123' } })).error?.code,
    ).toBe(24);
    expect(
      (await rawRpc(url, 'starknet_getTransactionByBlockIdAndIndex', { block_id: 'latest', index: 99 })).error?.code,
    ).toBe(27);
    expect((await rawRpc(url, 'starknet_getClass', { block_id: 'latest', class_hash: '0x123' })).error?.code).toBe(28);
    expect((await rawRpc(url, 'starknet_getTransactionReceipt', { transaction_hash: '0x123' })).error?.code).toBe(29);
    const rev = invokeV3(
      a1.address,
      transferCalldata(STRK, a0.address, 10n ** 30n),
      await nonceOf(a1.address),
      a1.private_key,
    );
    const e41 = await rawRpc(url, 'starknet_estimateFee', {
      request: [rev.tx],
      simulation_flags: [],
      block_id: 'latest',
    });
    expect(e41.error?.code).toBe(41);
    expect(e41.error?.data).toMatchObject({ transaction_index: 0 });
  });

  it('serves positional params, batches and every BLOCK_ID form', async () => {
    const latest = await rpcResult(dc.rpcUrl, 'starknet_blockHashAndNumber', []);
    const byNumber = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', [
      { block_number: latest.block_number },
    ]);
    const byHash = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', [{ block_hash: latest.block_hash }]);
    const byTag = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', ['latest']);
    expect(byNumber).toEqual(byHash);
    expect(byTag.block_hash).toBe(latest.block_hash);
    const pending = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', ['pre_confirmed']);
    expect(pending.block_number).toBe(latest.block_number + 1);
    expect(pending).not.toHaveProperty('block_hash');
    const parent = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', [
      { block_number: latest.block_number - 1 },
    ]);
    expect(byNumber.parent_hash).toBe(parent.block_hash);
    const res = await fetch(dc.rpcUrl.replace(/\/rpc$/, '/'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'starknet_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ]),
    });
    const batch = (await res.json()) as any[];
    expect(batch[0].result).toBe('0x534e5f5345504f4c4941');
    expect(batch[1].error.code).toBe(-32601);
  });
});
