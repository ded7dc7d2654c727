import { Account, CallData, Contract, config, ec, hash, RpcProvider, stark, uint256 } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeClasses } from './contracts/registry.js';
import { type RunningDevchain, startDevchain } from './startDevchain.js';
import { rpcResult } from './testing/rpc.js';
import { syntheticAnswer, syntheticClass } from './testing/syntheticClass.js';

const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

config.set('logLevel', 'ERROR');

let dc: RunningDevchain;
let provider: RpcProvider;
let funder: Account;

async function strkBalance(address: string): Promise<bigint> {
  const r = await provider.callContract({ contractAddress: STRK, entrypoint: 'balance_of', calldata: [address] });
  return uint256.uint256ToBN({ low: r[0]!, high: r[1]! });
}

async function feeOf(txHash: string): Promise<bigint> {
  const r = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: txHash });
  expect(r.actual_fee.unit).toBe('FRI');
  // actual_fee = l1_gas*p_l1 + l1_data_gas*p_l1data + l2_gas*(p_l2 + tip)
  const tx = await rpcResult(dc.rpcUrl, 'starknet_getTransactionByHash', { transaction_hash: txHash });
  const block = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', {
    block_id: { block_number: r.block_number },
  });
  const res = r.execution_resources;
  const expected =
    BigInt(res.l1_gas) * BigInt(block.l1_gas_price.price_in_fri) +
    BigInt(res.l1_data_gas) * BigInt(block.l1_data_gas_price.price_in_fri) +
    BigInt(res.l2_gas) * (BigInt(block.l2_gas_price.price_in_fri) + BigInt(tx.tip));
  expect(BigInt(r.actual_fee.amount)).toBe(expected);
  const last = r.events[r.events.length - 1];
  expect(last.from_address).toBe(BigInt(STRK).toString(16).replace(/^/, '0x'));
  expect(last.keys).toEqual([hash.getSelectorFromName('Transfer')]);
  expect(BigInt(last.data[2])).toBe(expected);
  return expected;
}

beforeAll(async () => {
  dc = await startDevchain({ port: 0 });
  provider = await RpcProvider.create({ nodeUrl: dc.rpcUrl });
  const accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  expect(accounts).toHaveLength(10);
  funder = new Account({ provider, address: accounts[0].address, signer: accounts[0].private_key });
});

afterAll(async () => {
  await dc.close();
});

describe('starknet.js Account against the dev chain', () => {
  it('reports chain id, spec version and a Sierra class for the account', async () => {
    expect(await provider.getChainId()).toBe('0x534e5f5345504f4c4941');
    expect(await provider.getSpecVersion()).toBe('0.10.2');
    const cls: any = await rpcResult(dc.rpcUrl, 'starknet_getClassAt', {
      block_id: 'latest',
      contract_address: funder.address,
    });
    expect(hash.computeSierraContractClassHash({ ...cls, abi: JSON.parse(cls.abi) })).toBe(
      `0x${nativeClasses.ozAccount.classHash.toString(16)}`,
    );
    expect(await provider.getClassHashAt(funder.address)).toBe(`0x${nativeClasses.ozAccount.classHash.toString(16)}`);
    const version = await provider.getContractVersion(funder.address);
    expect(version.cairo).toBe('1');
  });

  it('transfers STRK, deploys an OZ account, invokes from it; balances and nonces add up', async () => {
    const privateKey = stark.randomAddress();
    const publicKey = ec.starkCurve.getStarkKey(privateKey);
    const classHash = `0x${nativeClasses.ozAccount.classHash.toString(16)}`;
    const ctorCalldata = CallData.compile({ publicKey });
    const address = hash.calculateContractAddressFromHash(publicKey, classHash, ctorCalldata, 0);

    const funderBefore = await strkBalance(funder.address);
    const nonceBefore = BigInt(await provider.getNonceForAddress(funder.address));
    const amount = 10n ** 18n;
    const { transaction_hash: t1 } = await funder.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: address, amount: uint256.bnToUint256(amount) }),
    });
    const receipt = await provider.waitForTransaction(t1, { retryInterval: 50 });
    expect(receipt.isSuccess()).toBe(true);
    const fee1 = await feeOf(t1);
    expect(await strkBalance(funder.address)).toBe(funderBefore - amount - fee1);
    expect(await strkBalance(address)).toBe(amount);
    expect(BigInt(await provider.getNonceForAddress(funder.address))).toBe(nonceBefore + 1n);

    const account = new Account({ provider, address, signer: privateKey });
    const { transaction_hash: t2, contract_address } = await account.deployAccount({
      classHash,
      constructorCalldata: ctorCalldata,
      addressSalt: publicKey,
      contractAddress: address,
    });
    expect(contract_address).toBe(address);
    await provider.waitForTransaction(t2, { retryInterval: 50 });
    const fee2 = await feeOf(t2);
    const deployReceipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: t2 });
    expect(BigInt(deployReceipt.contract_address)).toBe(BigInt(address));
    expect(await strkBalance(address)).toBe(amount - fee2);
    expect(BigInt(await provider.getNonceForAddress(address))).toBe(1n);

    const { transaction_hash: t3 } = await account.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: funder.address, amount: uint256.bnToUint256(1000n) }),
    });
    await provider.waitForTransaction(t3, { retryInterval: 50 });
    const fee3 = await feeOf(t3);
    expect(await strkBalance(address)).toBe(amount - fee2 - fee3 - 1000n);
    expect(BigInt(await provider.getNonceForAddress(address))).toBe(2n);
  });

  it('deploys an Argent-style account and upgrades it to the newer version', async () => {
    const owner = stark.randomAddress();
    const ownerPub = ec.starkCurve.getStarkKey(owner);
    const v030 = `0x${nativeClasses.argentV030.classHash.toString(16)}`;
    const v040 = `0x${nativeClasses.argentV040.classHash.toString(16)}`;
    const ctor = CallData.compile({ owner: ownerPub, guardian: 0 });
    const address = hash.calculateContractAddressFromHash(ownerPub, v030, ctor, 0);
    const { transaction_hash: fund } = await funder.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: address, amount: uint256.bnToUint256(10n ** 18n) }),
    });
    await provider.waitForTransaction(fund, { retryInterval: 50 });
    const argent = new Account({ provider, address, signer: owner });
    const { transaction_hash: dep } = await argent.deployAccount({
      classHash: v030,
      constructorCalldata: ctor,
      addressSalt: ownerPub,
    });
    await provider.waitForTransaction(dep, { retryInterval: 50 });
    expect(await provider.getClassHashAt(address)).toBe(v030);
    const version = await provider.callContract({ contractAddress: address, entrypoint: 'get_version' });
    expect(version.map(Number)).toEqual([0, 3, 0]);
    const owner2 = await provider.callContract({ contractAddress: address, entrypoint: 'get_owner' });
    expect(BigInt(owner2[0]!)).toBe(BigInt(ownerPub));

    const { transaction_hash: up } = await argent.execute({
      contractAddress: address,
      entrypoint: 'upgrade',
      calldata: CallData.compile({ new_implementation: v040, calldata: [] }),
    });
    const upReceipt = await provider.waitForTransaction(up, { retryInterval: 50 });
    expect(upReceipt.isSuccess()).toBe(true);
    expect(await provider.getClassHashAt(address)).toBe(v040);
    const v2 = await provider.callContract({ contractAddress: address, entrypoint: 'get_version' });
    expect(v2.map(Number)).toEqual([0, 4, 0]);
    const su = await rpcResult(dc.rpcUrl, 'starknet_getStateUpdate', {
      block_id: { block_number: (upReceipt.value as { block_number: number }).block_number },
    });
    expect(su.state_diff.replaced_classes).toEqual([
      { contract_address: address.replace(/^0x0+/, '0x'), class_hash: v040 },
    ]);
  });

  it('refuses to declare a program that is not valid Sierra (56); declares, serves and runs a valid one', async () => {
    const junk = {
      ...syntheticClass('junk').contract,
      sierra_program: ['0x1', '0x7', '0x0', '0x2', '0xb', '0x0', stark.randomAddress()],
    };
    // an estimate says why (41, the execution error of estimateFee), the transaction itself is refused with 56
    const estimate = await funder.declare({ contract: junk as any, compiledClassHash: '0x1234' }).catch((e) => e);
    expect(estimate.baseError?.code).toBe(41);
    expect(JSON.stringify(estimate.baseError?.data)).toMatch(/Sierra program is invalid/);
    const bounds = {
      resourceBounds: {
        l1_gas: { max_amount: 0n, max_price_per_unit: 2n * 10n ** 9n },
        l2_gas: { max_amount: 10n ** 8n, max_price_per_unit: 2n * 10n ** 9n },
        l1_data_gas: { max_amount: 1000n, max_price_per_unit: 2n * 10n ** 9n },
      },
    };
    const refused = await funder
      .declare({ contract: junk as any, compiledClassHash: '0x1234' }, bounds)
      .catch((e) => e);
    expect(refused.baseError?.code).toBe(56);
    expect(JSON.stringify(refused.baseError?.data)).toMatch(/Sierra program is invalid/);

    const { contract, classHash: expectedHash } = syntheticClass('served-and-run');
    const { transaction_hash, class_hash } = await funder.declare({
      contract: contract as any,
      compiledClassHash: '0x1234',
    });
    expect(class_hash).toBe(expectedHash);
    await provider.waitForTransaction(transaction_hash, { retryInterval: 50 });
    const served: any = await rpcResult(dc.rpcUrl, 'starknet_getClass', { block_id: 'latest', class_hash });
    expect(served.sierra_program).toEqual(contract.sierra_program);
    expect(hash.computeSierraContractClassHash({ ...served, abi: JSON.parse(served.abi) })).toBe(expectedHash);
    await expect(funder.declare({ contract: contract as any, compiledClassHash: '0x1234' })).rejects.toThrow();

    // deployed through the UDC, it answers its own call
    const deployed = await funder.deploy({ classHash: class_hash, salt: '0x1' });
    await provider.waitForTransaction(deployed.transaction_hash, { retryInterval: 50 });
    const answer = await provider.callContract({
      contractAddress: deployed.contract_address[0]!,
      entrypoint: 'get_answer',
    });
    expect(answer.map(BigInt)).toEqual([syntheticAnswer('served-and-run')]);
  });

  it('deploys a native ERC20 through the UDC and reads it with a Contract', async () => {
    const erc20Hash = `0x${nativeClasses.erc20.classHash.toString(16)}`;
    const res = await funder.deploy({
      classHash: erc20Hash,
      constructorCalldata: CallData.compile({
        name: 'Test',
        symbol: 'TST',
        decimals: 18,
        initial_supply: uint256.bnToUint256(5000n),
        recipient: funder.address,
      }),
      salt: '0x42',
    });
    await provider.waitForTransaction(res.transaction_hash, { retryInterval: 50 });
    const deployed = res.contract_address[0]!;
    expect(deployed).toBe(
      hash.calculateContractAddressFromHash(
        hash.computePedersenHash(funder.address, '0x42'),
        erc20Hash,
        CallData.compile({
          name: 'Test',
          symbol: 'TST',
          decimals: 18,
          initial_supply: uint256.bnToUint256(5000n),
          recipient: funder.address,
        }),
        '0x02ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125',
      ),
    );
    const { abi } = await provider.getClassByHash(erc20Hash);
    const token = new Contract({ abi, address: deployed, providerOrAccount: provider });
    expect(BigInt(await token.balance_of(funder.address))).toBe(5000n);
  });

  it('serves the starknet.js read API without parse errors', async () => {
    const latest = await provider.getBlockLatestAccepted();
    const block = await provider.getBlockWithTxs(latest.block_number);
    expect(block.transactions.length).toBe(1);
    const withReceipts = await provider.getBlockWithReceipts('latest');
    expect(withReceipts.transactions[0]!.receipt.transaction_hash).toBe(block.transactions[0]!.transaction_hash);
    const hashes = await provider.getBlockWithTxHashes(latest.block_hash);
    expect(hashes.transactions).toEqual([block.transactions[0]!.transaction_hash]);
    const pre = await provider.getBlock('pre_confirmed');
    expect(pre.block_number).toBe(latest.block_number + 1);
    const su = await provider.getStateUpdate(latest.block_number);
    expect(su.state_diff.nonces.length).toBeGreaterThan(0);
    const txHash = block.transactions[0]!.transaction_hash;
    expect((await provider.getTransactionByHash(txHash)).transaction_hash).toBe(txHash);
    expect((await provider.getTransactionReceipt(txHash)).isSuccess()).toBe(true);
    expect(await provider.getTransactionStatus(txHash)).toMatchObject({ finality_status: 'ACCEPTED_ON_L2' });
    expect(await provider.getBlockTransactionCount(latest.block_number)).toBe(1);
    const events = await provider.getEvents({
      from_block: { block_number: 0 },
      to_block: 'latest',
      address: STRK,
      keys: [[hash.getSelectorFromName('Transfer')]],
      chunk_size: 3,
    });
    expect(events.events).toHaveLength(3);
    expect(events.continuation_token).toBeDefined();
    const next = await provider.getEvents({
      from_block: { block_number: 0 },
      to_block: 'latest',
      address: STRK,
      chunk_size: 3,
      continuation_token: events.continuation_token!,
    });
    expect(next.events[0]).not.toEqual(events.events[0]);
    expect(BigInt((await provider.getStorageAt(STRK, '0x0', 'latest')).value)).toBe(0n);
    const fee = await funder.estimateInvokeFee({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: funder.address, amount: uint256.bnToUint256(1n) }),
    });
    expect(fee.overall_fee).toBeGreaterThan(0n);
    expect(fee.unit).toBe('FRI');
  });
});
