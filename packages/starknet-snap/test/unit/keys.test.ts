import { BIP44CoinTypeNode } from '@metamask/key-tree';
import { ARGENT_ACCOUNT_CLASS_HASH } from '../../src/config';
import { accountAddress, STARKNET_COIN_TYPE, starkKeyPairFromNode } from '../../src/lib/keys';
import { KEY_VECTOR } from '../vectors';

describe("key derivation (m/44'/9004'/0'/0/i, ground to a Stark key)", () => {
  it('matches the reference vector for the default recovery phrase at index 0', async () => {
    const node = await BIP44CoinTypeNode.fromDerivationPath([
      `bip39:${KEY_VECTOR.mnemonic}`,
      "bip32:44'",
      `bip32:${STARKNET_COIN_TYPE}'`,
    ]);
    const keys = await starkKeyPairFromNode(node.toJSON(), 0);
    expect(keys.privateKey).toBe(KEY_VECTOR.privateKey);
    expect(keys.publicKey).toBe(KEY_VECTOR.publicKey);
    expect(accountAddress(keys.publicKey, ARGENT_ACCOUNT_CLASS_HASH)).toBe(KEY_VECTOR.argentAddress);
  });
  it('gives different keys at different indices', async () => {
    const node = await BIP44CoinTypeNode.fromDerivationPath([
      `bip39:${KEY_VECTOR.mnemonic}`,
      "bip32:44'",
      "bip32:9004'",
    ]);
    const a = await starkKeyPairFromNode(node.toJSON(), 0);
    const b = await starkKeyPairFromNode(node.toJSON(), 1);
    expect(a.publicKey).not.toBe(b.publicKey);
  });
});
