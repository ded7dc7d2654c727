import {
  Account,
  CallData,
  config,
  Contract,
  ec,
  hash,
  num,
  RpcProvider,
  type Signature,
  Signer,
  stark,
  uint256,
} from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../startDevchain.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';
import { nativeClasses } from './registry.js';

config.set('logLevel', 'ERROR');

const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const ISRC6 = '0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cd';
const VALID = '0x56414c4944';

/** Signs with the owner and the guardian, as an Argent account with a guardian expects. */
class OwnerAndGuardianSigner extends Signer {
  constructor(
    owner: string,
    private readonly guardian: string,
  ) {
    super(owner);
  }

  protected override async signRaw(msgHash: string): Promise<Signature> {
    const a = ec.starkCurve.sign(msgHash, this.pk as string);
    const b = ec.starkCurve.sign(msgHash, this.guardian);
    return [num.toHex(a.r), num.toHex(a.s), num.toHex(b.r), num.toHex(b.s)];
  }
}

let dc: RunningDevchain;
let provider: RpcProvider;
let alice: Account;
let bob: Account;
let accounts: { address: string; private_key: string; public_key: string }[];
const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 50 });

beforeAll(async () => {
  dc = await startDevchain({ port: 0, accounts: 3, seed: 11 });
  provider = new RpcProvider({ nodeUrl: dc.rpcUrl });
  accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  alice = new Account({ provider, address: accounts[0]!.address, signer: accounts[0]!.private_key });
  bob = new Account({ provider, address: accounts[1]!.address, signer: accounts[1]!.private_key });
});

afterAll(async () => {
  await dc.close();
});

describe('native ERC20', () => {
  it('metadata, approve, allowance and transfer_from with OZ semantics and events', async () => {
    const { abi } = await provider.getClassByHash(num.toHex(nativeClasses.erc20.classHash));
    const strk = new Contract({ abi, address: STRK, providerOrAccount: provider });
    expect(BigInt(await strk.decimals())).toBe(18n);
    expect(BigInt(await strk.symbol())).toBe(BigInt('0x5354524b'));
    expect(BigInt(await strk.total_supply())).toBe(3n * 10n ** 21n);
    const { transaction_hash: a } = await alice.execute({
      contractAddress: STRK,
      entrypoint: 'approve',
      calldata: CallData.compile({ spender: bob.address, amount: uint256.bnToUint256(500n) }),
    });
    const ra = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', {
      transaction_hash: await wait(a).then(() => a),
    });
    expect(ra.events[0]).toEqual({
      from_address: num.toHex(BigInt(STRK)),
      keys: [hash.getSelectorFromName('Approval')],
      data: [num.toHex(BigInt(alice.address)), num.toHex(BigInt(bob.address)), '0x1f4', '0x0'],
    });
    expect(BigInt(await strk.allowance(alice.address, bob.address))).toBe(500n);
    const carol = stark.randomAddress();
    const { transaction_hash: t } = await bob.execute({
      contractAddress: STRK,
      entrypoint: 'transfer_from',
      calldata: CallData.compile({ sender: alice.address, recipient: carol, amount: uint256.bnToUint256(300n) }),
    });
    await wait(t);
    expect(BigInt(await strk.balance_of(carol))).toBe(300n);
    expect(BigInt(await strk.allowance(alice.address, bob.address))).toBe(200n);
    const { transaction_hash: over } = await bob.execute(
      {
        contractAddress: STRK,
        entrypoint: 'transferFrom',
        calldata: CallData.compile({ sender: alice.address, recipient: carol, amount: uint256.bnToUint256(201n) }),
      },
      {
        resourceBounds: {
          l1_gas: { max_amount: 0n, max_price_per_unit: 2n * 10n ** 9n },
          l2_gas: { max_amount: 10n ** 7n, max_price_per_unit: 2n * 10n ** 9n },
          l1_data_gas: { max_amount: 10n ** 4n, max_price_per_unit: 2n * 10n ** 9n },
        },
      },
    );
    const r = await wait(over);
    expect(r.isReverted()).toBe(true);
  });
});

describe('native accounts', () => {
  it('OZ account: is_valid_signature, supports_interface, set_public_key (self only)', async () => {
    const msg = '0x1234abcd';
    const sig = ec.starkCurve.sign(msg, accounts[0]!.private_key);
    const ok = await provider.callContract({
      contractAddress: alice.address,
      entrypoint: 'is_valid_signature',
      calldata: [msg, '0x2', num.toHex(sig.r), num.toHex(sig.s)],
    });
    expect(ok).toEqual([VALID]);
    const bad = await provider.callContract({
      contractAddress: alice.address,
      entrypoint: 'is_valid_signature',
      calldata: [msg, '0x2', num.toHex(sig.s), num.toHex(sig.r)],
    });
    expect(bad).toEqual(['0x0']);
    expect(
      await provider.callContract({
        contractAddress: alice.address,
        entrypoint: 'supports_interface',
        calldata: [ISRC6],
      }),
    ).toEqual(['0x1']);
    // Another account may not change the key.
    const { transaction_hash: hijack } = await bob.execute(
      { contractAddress: alice.address, entrypoint: 'set_public_key', calldata: ['0x123', '0x0'] },
      {
        resourceBounds: {
          l1_gas: { max_amount: 0n, max_price_per_unit: 2n * 10n ** 9n },
          l2_gas: { max_amount: 10n ** 7n, max_price_per_unit: 2n * 10n ** 9n },
          l1_data_gas: { max_amount: 10n ** 4n, max_price_per_unit: 2n * 10n ** 9n },
        },
      },
    );
    expect((await wait(hijack)).isReverted()).toBe(true);
    const newPk = stark.randomAddress();
    const newPub = ec.starkCurve.getStarkKey(newPk);
    const { transaction_hash: rotate } = await alice.execute({
      contractAddress: alice.address,
      entrypoint: 'set_public_key',
      calldata: [newPub, '0x0'],
    });
    expect((await wait(rotate)).isSuccess()).toBe(true);
    expect(await provider.callContract({ contractAddress: alice.address, entrypoint: 'get_public_key' })).toEqual([
      num.toHex(BigInt(newPub)),
    ]);
    // The old key no longer validates (55); the new one does.
    await expect(
      alice.execute({ contractAddress: STRK, entrypoint: 'transfer', calldata: [bob.address, '0x1', '0x0'] }),
    ).rejects.toThrow(/55|validat/i);
    const rotated = new Account({ provider, address: alice.address, signer: newPk });
    const { transaction_hash: after } = await rotated.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: [bob.address, '0x1', '0x0'],
    });
    expect((await wait(after)).isSuccess()).toBe(true);
  });

  it('Argent-style account with a guardian needs both signatures', async () => {
    const owner = stark.randomAddress();
    const guardian = stark.randomAddress();
    const ownerPub = ec.starkCurve.getStarkKey(owner);
    const guardianPub = ec.starkCurve.getStarkKey(guardian);
    const cls = num.toHex(nativeClasses.argentV040.classHash);
    const ctor = CallData.compile({ owner: ownerPub, guardian: guardianPub });
    const address = hash.calculateContractAddressFromHash(ownerPub, cls, ctor, 0);
    await rpcResult(dc.rpcUrl, 'devnet_mint', { address, amount: 1e20, unit: 'FRI' });
    const ownerOnly = new Account({ provider, address, signer: owner });
    await expect(
      ownerOnly.deployAccount({ classHash: cls, constructorCalldata: ctor, addressSalt: ownerPub }),
    ).rejects.toThrow();
    const both = new Account({ provider, address, signer: new OwnerAndGuardianSigner(owner, guardian) });
    const { transaction_hash } = await both.deployAccount({
      classHash: cls,
      constructorCalldata: ctor,
      addressSalt: ownerPub,
    });
    expect((await wait(transaction_hash)).isSuccess()).toBe(true);
    expect(await provider.callContract({ contractAddress: address, entrypoint: 'get_guardian' })).toEqual([
      num.toHex(BigInt(guardianPub)),
    ]);
    const { transaction_hash: t } = await both.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: [bob.address, '0x5', '0x0'],
    });
    const receipt = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', {
      transaction_hash: await wait(t).then(() => t),
    });
    // Transfer, then the account's TransactionExecuted, then the fee transfer.
    expect(receipt.events.map((e: { keys: string[] }) => e.keys[0])).toEqual([
      hash.getSelectorFromName('Transfer'),
      hash.getSelectorFromName('TransactionExecuted'),
      hash.getSelectorFromName('Transfer'),
    ]);
    expect(receipt.events[1].keys[1]).toBe(t);
    // Upgrading to a non-Argent class is refused.
    const { transaction_hash: up } = await both.execute(
      { contractAddress: address, entrypoint: 'upgrade', calldata: [num.toHex(nativeClasses.erc20.classHash), '0x0'] },
      {
        resourceBounds: {
          l1_gas: { max_amount: 0n, max_price_per_unit: 2n * 10n ** 9n },
          l2_gas: { max_amount: 10n ** 7n, max_price_per_unit: 2n * 10n ** 9n },
          l1_data_gas: { max_amount: 10n ** 4n, max_price_per_unit: 2n * 10n ** 9n },
        },
      },
    );
    const rup = await rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: up });
    expect(rup.revert_reason).toMatch(/argent\/invalid-implementation/);
    expect(
      (await rawRpc(dc.rpcUrl, 'starknet_getClassHashAt', { block_id: 'latest', contract_address: address })).result,
    ).toBe(cls);
  });
});
