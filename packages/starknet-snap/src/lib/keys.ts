import { getBIP44AddressKeyDeriver } from '@metamask/key-tree';
import type { BIP44CoinTypeNode } from '@metamask/key-tree';
import { ec, hash, num } from 'starknet';

/** SLIP-44 coin type of Starknet. */
export const STARKNET_COIN_TYPE = 9004;

/** A Stark key pair. Never store, return or log `privateKey`. */
export interface StarkKeyPair {
  readonly privateKey: string;
  readonly publicKey: string;
}

/**
 * Grinds the BIP-44 key at m/44'/9004'/0'/0/`index` to a Stark key pair.
 *
 * @param coinTypeNode - The m/44'/9004' node (from `snap_getBip44Entropy`).
 * @param index - The address index.
 * @returns The key pair (private key as 0x-prefixed hex).
 * @example
 * ```ts
 * const { publicKey } = await starkKeyPairFromNode(node, 0);
 * ```
 */
export async function starkKeyPairFromNode(
  coinTypeNode: BIP44CoinTypeNode | object,
  index: number,
): Promise<StarkKeyPair> {
  const derive = await getBIP44AddressKeyDeriver(coinTypeNode as BIP44CoinTypeNode);
  const node = await derive(index);
  if (!node.privateKey) throw new Error('BIP-44 derivation gave no private key');
  const privateKey = num.toHex(`0x${ec.starkCurve.grindKey(node.privateKey)}`);
  return { privateKey, publicKey: num.toHex(ec.starkCurve.getStarkKey(privateKey)) };
}

/**
 * Constructor calldata of an Argent-style account: owner = public key, guardian = 0.
 *
 * @param publicKey - The owner's Stark public key.
 * @returns The calldata.
 */
export function accountConstructorCalldata(publicKey: string): string[] {
  return [num.toHex(publicKey), '0x0'];
}

/**
 * Address of the Argent-style account for `publicKey`: salt = public key, deployer 0.
 *
 * @param publicKey - The owner's Stark public key.
 * @param classHash - The account class hash.
 * @returns The normalised (no leading zeros) 0x address.
 * @example
 * ```ts
 * accountAddress('0x1297…a62', ARGENT_ACCOUNT_CLASS_HASH); // '0x3a48f97…883'
 * ```
 */
export function accountAddress(publicKey: string, classHash: string): string {
  return num.toHex(
    hash.calculateContractAddressFromHash(publicKey, classHash, accountConstructorCalldata(publicKey), 0),
  );
}

/**
 * Normalises a felt-like hex string (address, hash) for comparison: lowercase, no leading zeros.
 *
 * @param value - The hex string.
 * @returns The normalised hex.
 */
export function normHex(value: string): string {
  return num.toHex(value);
}
