import type { BIP44CoinTypeNode } from '@metamask/key-tree';
import { Account } from 'starknet';
import type { NetworkConfig } from '../config';
import { getState } from '../state/store';
import { findAccount } from '../state/transitions';
import { providerFor } from './chain';
import { SnapErrorCode, snapError } from './errors';
import { accountAddress, STARKNET_COIN_TYPE, type StarkKeyPair, starkKeyPairFromNode } from './keys';

/** How many address indices the snap searches for an address it has not stored. */
export const ADDRESS_SEARCH_LIMIT = 20;

/** An account of this wallet, without its private key. */
export interface WalletAccount {
  readonly address: string;
  readonly addressIndex: number;
  readonly publicKey: string;
}

/**
 * The BIP-44 coin-type node for Starknet, from the wallet (asks `snap_getBip44Entropy`).
 *
 * @returns The node (JSON form).
 */
export async function coinTypeNode(): Promise<BIP44CoinTypeNode | object> {
  return snap.request({ method: 'snap_getBip44Entropy', params: { coinType: STARKNET_COIN_TYPE } });
}

/**
 * The account at `addressIndex` on a network (address computed with the network's account class).
 *
 * @param net - The network.
 * @param addressIndex - The BIP-44 address index.
 * @param node - The coin-type node, when the caller already has it.
 * @returns The account and its key pair (use the private key only for signing, then drop it).
 */
export async function accountAt(
  net: NetworkConfig,
  addressIndex: number,
  node?: BIP44CoinTypeNode | object,
): Promise<WalletAccount & { keys: StarkKeyPair }> {
  const keys = await starkKeyPairFromNode(node ?? (await coinTypeNode()), addressIndex);
  return {
    address: accountAddress(keys.publicKey, net.accountClassHash),
    addressIndex,
    publicKey: keys.publicKey,
    keys,
  };
}

/**
 * Finds which of this wallet's accounts has `address`: first among stored accounts, then by deriving
 * indices 0..{@link ADDRESS_SEARCH_LIMIT}-1.
 *
 * @param net - The network.
 * @param address - The account address (normalised).
 * @param param - The parameter name, for the error message.
 * @returns The account and its key pair.
 * @throws AccountNotFound when the address is not one of this wallet's accounts.
 */
export async function findWalletAccount(
  net: NetworkConfig,
  address: string,
  param: string,
): Promise<WalletAccount & { keys: StarkKeyPair }> {
  const node = await coinTypeNode();
  const stored = findAccount(await getState(), net.chainId, address);
  if (stored) {
    const acc = await accountAt(net, stored.addressIndex, node);
    if (BigInt(acc.address) === BigInt(address)) return acc;
  }
  for (let i = 0; i < ADDRESS_SEARCH_LIMIT; i++) {
    const acc = await accountAt(net, i, node);
    if (BigInt(acc.address) === BigInt(address)) return acc;
  }
  throw snapError(
    SnapErrorCode.AccountNotFound,
    `${param} ${address} is not an account of this wallet on ${net.name} (searched address indices 0-${ADDRESS_SEARCH_LIMIT - 1}); use stk_createAccount or stk_recoverAccounts first`,
    { param },
  );
}

/**
 * A starknet.js Account that signs with the derived key. Keep it only for the duration of one request.
 *
 * @param net - The network.
 * @param acc - The wallet account with its keys.
 * @returns The signer account.
 */
export function signerAccount(net: NetworkConfig, acc: WalletAccount & { keys: StarkKeyPair }): Account {
  return new Account({
    provider: providerFor(net),
    address: acc.address,
    signer: acc.keys.privateKey,
    cairoVersion: '1',
  });
}
