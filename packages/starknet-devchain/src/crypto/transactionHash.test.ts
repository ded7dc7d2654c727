import { hash, num } from 'starknet';
import { describe, expect, it } from 'vitest';
import { parseTransaction } from '../chain/parseTransaction.js';
import { nativeClasses } from '../contracts/registry.js';
import { computeSierraClassHash } from '../contracts/sierraClass.js';
import {
  declareV2,
  declareV3,
  deployAccountV1,
  deployAccountV3,
  invokeV1,
  invokeV3,
  invokeV3TwoBounds,
  SEPOLIA,
  transferCalldata,
} from '../testing/signedTx.js';
import { contractAddress } from './contractAddress.js';
import { transactionHash } from './transactionHash.js';

const PK = '0x1234567890abcdef';
const SENDER = '0x37fda66e8c88402e486378c93071a53e860ad28eb96c01fd089f7847e96939';
const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const chain = BigInt(SEPOLIA);
const ours = (tx: unknown) => num.toHex(transactionHash(parseTransaction(tx), chain));

describe('transaction hashes equal starknet.js', () => {
  const calldata = transferCalldata(STRK, '0x123', 10n ** 18n);

  it('INVOKE v3 (three bounds), with tip, and its query version', () => {
    const a = invokeV3(SENDER, calldata, 5n, PK, { tip: 7n });
    expect(ours(a.tx)).toBe(a.hash);
    const q = invokeV3(SENDER, calldata, 5n, PK, { version: '0x100000000000000000000000000000003' });
    expect(ours(q.tx)).toBe(q.hash);
    expect(q.hash).not.toBe(a.hash);
  });

  it('INVOKE v3 of the older two-bound shape', () => {
    const b = {
      l1_gas: { max_amount: 10_000n, max_price_per_unit: 10n ** 10n },
      l2_gas: { max_amount: 0n, max_price_per_unit: 0n },
    };
    const a = invokeV3TwoBounds(SENDER, calldata, 1n, PK, b);
    expect(ours(a.tx)).toBe(a.hash);
  });

  it('INVOKE v1, DEPLOY_ACCOUNT v1 and DECLARE v2 (Pedersen)', () => {
    const i = invokeV1(SENDER, calldata, 3n, 10n ** 16n, PK);
    expect(ours(i.tx)).toBe(i.hash);
    const cls = num.toHex(nativeClasses.ozAccount.classHash);
    const d = deployAccountV1(cls, ['0x99'], '0x99', 10n ** 16n, PK);
    expect(ours(d.tx)).toBe(d.hash);
    const dc = declareV2(SENDER, 'v2', 2n, 10n ** 16n, PK);
    expect(ours(dc.tx)).toBe(dc.hash);
  });

  it('DEPLOY_ACCOUNT v3 and DECLARE v3 (Poseidon)', () => {
    const cls = num.toHex(nativeClasses.argentV030.classHash);
    const d = deployAccountV3(cls, ['0x99', '0x0'], '0x77', PK);
    expect(ours(d.tx)).toBe(d.hash);
    const dc = declareV3(SENDER, 'v3', 9n, PK);
    expect(ours(dc.tx)).toBe(dc.hash);
  });

  it('contract addresses equal calculateContractAddressFromHash', () => {
    for (const [salt, ctor, deployer] of [
      [5n, [1n, 2n, 3n], 0n],
      [0x1234n, [], 0x2ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125n],
    ] as const) {
      const cls = nativeClasses.erc20.classHash;
      expect(num.toHex(contractAddress(salt, cls, ctor, deployer))).toBe(
        num.toHex(hash.calculateContractAddressFromHash(salt, cls, ctor.map(num.toHex), deployer)),
      );
    }
  });

  it('class hashes of the native classes equal computeSierraContractClassHash', () => {
    for (const c of Object.values(nativeClasses)) {
      expect(num.toHex(computeSierraClassHash(c.sierra))).toBe(
        hash.computeSierraContractClassHash({ ...c.sierra, abi: JSON.parse(c.sierra.abi) } as any),
      );
    }
  });
});
