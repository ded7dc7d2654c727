// The Sierra gas of user contracts on the dev chain, through JSON-RPC with starknet.js: receipts' L2 gas is the base
// gas of the transaction plus what the Sierra code consumed (compared with @nodegate/sierra-vm run directly), an
// estimate equals the charge, a transaction's l2_gas bound limits the VM, and running out of gas reverts.
import { loadContractClass, runEntryPoint as runVmEntryPoint, type StarknetHost } from '@nodegate/sierra-vm';
import { Account, CallData, config, ec, hash, num, RpcProvider, stark, uint256 } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../startDevchain.js';
import { readCairoTestData } from '../testing/readCairoTestData.js';
import { readTestContract } from '../testing/readTestContract.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';
import { bounds3, invokeV3 } from '../testing/signedTx.js';

config.set('logLevel', 'ERROR');

const gasLoops = readTestContract('gas_loops');
const sel = (name: string) => hash.getSelectorFromName(name);
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const PRICE = 2n * 10n ** 9n;
const bounds = (l2: bigint) => ({ resourceBounds: bounds3(l2, PRICE) });
/** The version of a v3 transaction sent for an estimate (2^128 + 3). */
const QUERY_V3 = '0x100000000000000000000000000000003';
/** The base L2 gas of an INVOKE (the dev chain's table): 600,000 + 5,000 per calldata felt. */
const invokeBase = (calldataLength: number) => 600_000n + 5_000n * BigInt(calldataLength);

let dc: RunningDevchain;
let provider: RpcProvider;
let alice: Account;
let aliceKey: string;
let a: string;
let b: string;

const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 50 });
const receipt = (h: string) => rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: h });
const call = (contractAddress: string, entrypoint: string, calldata: (string | number | bigint)[]) => ({
  contractAddress,
  entrypoint,
  calldata: CallData.toHex(calldata),
});
/** Invokes one call from alice with the given L2 bound; its receipt. */
async function invoke(c: ReturnType<typeof call>, l2 = 10n ** 8n) {
  const { transaction_hash } = await alice.execute(c, bounds(l2));
  await wait(transaction_hash);
  return receipt(transaction_hash);
}
/** The fee a receipt's gas costs at its block's prices (FRI). */
async function feeAtBlock(r: {
  block_number: number;
  execution_resources: { l1_gas: number; l1_data_gas: number; l2_gas: number };
}) {
  const block = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', {
    block_id: { block_number: r.block_number },
  });
  const g = r.execution_resources;
  return (
    BigInt(g.l1_gas) * BigInt(block.l1_gas_price.price_in_fri) +
    BigInt(g.l1_data_gas) * BigInt(block.l1_data_gas_price.price_in_fri) +
    BigInt(g.l2_gas) * BigInt(block.l2_gas_price.price_in_fri)
  );
}
/** The calldata of alice's native __execute__ for one call: [1, to, selector, len, ...calldata]. */
const executeLength = (c: ReturnType<typeof call>) => 4 + c.calldata.length;

beforeAll(async () => {
  dc = await startDevchain({ port: 0, accounts: 1, seed: 41 });
  provider = new RpcProvider({ nodeUrl: dc.rpcUrl });
  const [acc] = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  aliceKey = acc.private_key;
  alice = new Account({ provider, address: acc.address, signer: aliceKey });
  const d = await alice.declare({ contract: gasLoops, compiledClassHash: '0x1' });
  await wait(d.transaction_hash);
  const deploy = async (salt: string) => {
    const r = await alice.deploy({ classHash: d.class_hash, constructorCalldata: [], salt });
    await wait(r.transaction_hash);
    return r.contract_address[0]!;
  };
  a = await deploy('0xa');
  b = await deploy('0xb');
});

afterAll(async () => {
  await dc.close();
});

/** gas_loops run by @nodegate/sierra-vm alone (no chain): the gas an entry point uses. */
function vmGas(name: string, args: (string | number | bigint)[]): bigint {
  const cls = loadContractClass(gasLoops);
  const host = new Proxy({} as StarknetHost, {
    get: () => () => {
      throw new Error('no syscalls here');
    },
  });
  const calldata = CallData.compile(args).map((x) => BigInt(x));
  return runVmEntryPoint(cls, 'EXTERNAL', BigInt(sel(name)), calldata, { host, availableGas: 10n ** 9n }).gasUsed;
}

describe('L2 gas of transactions that run Sierra code', () => {
  it('is the base gas plus the gas the VM consumed (native-only transactions keep the base)', async () => {
    const transfer = call(STRK, 'transfer', [b, ...Object.values(uint256.bnToUint256(1n))]);
    const native = await invoke(transfer);
    expect(BigInt(native.execution_resources.l2_gas)).toBe(invokeBase(executeLength(transfer)));

    for (const n of [0, 700]) {
      const c = call(a, 'count', [n]);
      const r = await invoke(c);
      expect(r.execution_status).toBe('SUCCEEDED');
      expect(BigInt(r.execution_resources.l2_gas), `count(${n})`).toBe(
        invokeBase(executeLength(c)) + vmGas('count', [n]),
      );
      expect(BigInt(r.actual_fee.amount)).toBe(await feeAtBlock(r));
    }
  });

  it('an estimate equals what the transaction then pays', async () => {
    const c = call(a, 'write_many', [12]);
    const [estimate] = await rpcResult(dc.rpcUrl, 'starknet_estimateFee', {
      request: [await invokeRequest(c)],
      simulation_flags: ['SKIP_VALIDATE'],
      block_id: 'latest',
    });
    const r = await invoke(c);
    expect(BigInt(estimate.l2_gas_consumed)).toBe(BigInt(r.execution_resources.l2_gas));
    expect(BigInt(estimate.overall_fee)).toBe(BigInt(r.actual_fee.amount));
    expect(BigInt(r.execution_resources.l2_gas)).toBeGreaterThan(invokeBase(executeLength(c)) + 12n * 9_670n);
  });

  it("a nested call's gas is paid by the transaction that made it", async () => {
    const gasOf = async (c: ReturnType<typeof call>) => BigInt((await invoke(c)).execution_resources.l2_gas);
    const nested = (await gasOf(call(a, 'call_count', [b, 500]))) - (await gasOf(call(a, 'call_count', [b, 0])));
    const direct = (await gasOf(call(b, 'count', [500]))) - (await gasOf(call(b, 'count', [0])));
    expect(nested).toBe(direct);
    expect(direct).toBe(vmGas('count', [500]) - vmGas('count', [0]));
  });
});

describe('running out of gas', () => {
  it("reverts __execute__ with 'Out of gas', charging the whole L2 bound", async () => {
    const bound = 3n * 10n ** 6n;
    const r = await invoke(call(a, 'spin', [1]), bound);
    expect(r.execution_status).toBe('REVERTED');
    expect(r.revert_reason).toMatch(/Out of gas/);
    expect(BigInt(r.execution_resources.l2_gas)).toBe(bound);
    expect(BigInt(r.actual_fee.amount)).toBe(await feeAtBlock(r));
    // A loop that ends runs within the same bound.
    expect((await invoke(call(a, 'count', [100]), bound)).execution_status).toBe('SUCCEEDED');
  });

  it('a bound too small for a loop that ends reverts it; a larger one lets it run', async () => {
    const c = call(a, 'count', [2000]);
    const need = invokeBase(executeLength(c)) + vmGas('count', [2000]);
    expect((await invoke(c, need - 1n)).revert_reason).toMatch(/Out of gas/);
    const ok = await invoke(c, need);
    expect(ok.execution_status).toBe('SUCCEEDED');
    expect(BigInt(ok.execution_resources.l2_gas)).toBe(need);
  });

  it('a nested call that runs out of gas reverts its caller', async () => {
    const r = await invoke(call(a, 'call_spin', [b]), 5n * 10n ** 6n);
    expect(r.execution_status).toBe('REVERTED');
    expect(r.revert_reason).toMatch(/Out of gas/);
  });

  it("a call or an estimate of a loop that never ends fails with 'Out of gas' (the default cap)", async () => {
    const r = await rawRpc(dc.rpcUrl, 'starknet_call', {
      request: { contract_address: a, entry_point_selector: sel('spin'), calldata: ['0x1'] },
      block_id: 'latest',
    });
    expect(r.error?.code).toBe(40);
    expect(JSON.stringify(r.error?.data)).toMatch(/Out of gas/);
    const est = await rawRpc(dc.rpcUrl, 'starknet_estimateFee', {
      request: [await invokeRequest(call(a, 'spin', [1]))],
      simulation_flags: ['SKIP_VALIDATE'],
      block_id: 'latest',
    });
    expect(est.error?.code).toBe(41);
    expect(JSON.stringify(est.error?.data)).toMatch(/Out of gas/);
  });
});

describe('a user-declared account (the Cairo test data account) runs its validation on the VM', () => {
  it('pays the Sierra gas of its deployment and of __validate__ + __execute__, as estimated', async () => {
    const d = await alice.declare({
      contract: readCairoTestData('account__account'),
      compiledClassHash: hash.computeCompiledClassHash(
        readCairoTestData('account__account', 'compiled_contract_class'),
      ),
    });
    await wait(d.transaction_hash);
    const privateKey = stark.randomAddress();
    const publicKey = ec.starkCurve.getStarkKey(privateKey);
    const address = hash.calculateContractAddressFromHash(publicKey, d.class_hash, [publicKey], 0);
    await rpcResult(dc.rpcUrl, 'devnet_mint', { address, amount: 10 ** 20, unit: 'FRI' });
    const user = new Account({ provider, address, signer: privateKey });
    const deployed = await user.deployAccount(
      { classHash: d.class_hash, constructorCalldata: [publicKey], addressSalt: publicKey },
      bounds(10n ** 8n),
    );
    await wait(deployed.transaction_hash);
    const deployReceipt = await receipt(deployed.transaction_hash);
    // DEPLOY_ACCOUNT's base is 900,000 + 5,000 per constructor felt; the constructor and __validate_deploy__ ran.
    expect(BigInt(deployReceipt.execution_resources.l2_gas)).toBeGreaterThan(905_000n);

    const transfer = call(STRK, 'transfer', [b, ...Object.values(uint256.bnToUint256(5n))]);
    // Signed raw transactions: the estimate (query version, its own signature) and then the transaction.
    const executeCalldata = [1, STRK, sel('transfer'), transfer.calldata.length, ...transfer.calldata].map((x) =>
      num.toHex(x),
    );
    const nonce = BigInt(await user.getNonce());
    const rb = bounds3(10n ** 8n, PRICE);
    const query = invokeV3(address, executeCalldata, nonce, privateKey, {
      bounds: rb,
      version: QUERY_V3,
    });
    const [estimate] = await rpcResult(dc.rpcUrl, 'starknet_estimateFee', {
      request: [query.tx],
      simulation_flags: [],
      block_id: 'latest',
    });
    const signed = invokeV3(address, executeCalldata, nonce, privateKey, { bounds: rb });
    const { transaction_hash } = await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', {
      invoke_transaction: signed.tx,
    });
    await wait(transaction_hash);
    const r = await receipt(transaction_hash);
    expect(r.execution_status).toBe('SUCCEEDED');
    expect(BigInt(r.execution_resources.l2_gas)).toBe(BigInt(estimate.l2_gas_consumed));
    expect(BigInt(r.actual_fee.amount)).toBe(BigInt(estimate.overall_fee));
    expect(BigInt(r.execution_resources.l2_gas)).toBeGreaterThan(invokeBase(executeLength(transfer)));
    // Too small a bound for the signature check: the validation runs out of gas and the transaction is refused.
    const refused = await user.execute(transfer, bounds(invokeBase(executeLength(transfer)) + 1000n)).catch((e) => e);
    expect(refused?.baseError?.code).toBe(55);
    expect(JSON.stringify(refused.baseError.data)).toMatch(/Out of gas/);
  });
});

/** A signed INVOKE v3 request (the query version) from alice for an estimate. */
async function invokeRequest(c: ReturnType<typeof call>) {
  const calldata = [1, c.contractAddress, sel(c.entrypoint), c.calldata.length, ...c.calldata].map((x) => num.toHex(x));
  const nonce = BigInt(await alice.getNonce());
  return invokeV3(alice.address, calldata, nonce, aliceKey, { bounds: bounds3(10n ** 8n, PRICE), version: QUERY_V3 })
    .tx;
}
