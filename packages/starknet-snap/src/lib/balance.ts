import { type NetworkConfig, STRK_TOKEN_ADDRESS } from '../config';
import { chainCall, providerFor } from './chain';
import { snapError } from './errors';
import { formatUnits } from './format';

/** Starknet's INSUFFICIENT_ACCOUNT_BALANCE code, reused for the same condition found before sending. */
export const INSUFFICIENT_ACCOUNT_BALANCE = 54;

/**
 * The STRK balance of an address at the pre-confirmed block.
 *
 * @param net - The network.
 * @param address - The account.
 * @returns The balance in FRI.
 */
export async function strkBalanceOf(net: NetworkConfig, address: string): Promise<bigint> {
  const r = await chainCall(net, `read the STRK balance of ${address}`, () =>
    providerFor(net).callContract(
      { contractAddress: STRK_TOKEN_ADDRESS, entrypoint: 'balance_of', calldata: [address] },
      'pre_confirmed',
    ),
  );
  return BigInt(r[0] ?? '0x0') + (BigInt(r[1] ?? '0x0') << 128n);
}

/**
 * Refuses, before any dialog, a transaction whose maximal fee the account cannot pay (the node would reject it
 * with the same code 54).
 *
 * @param net - The network.
 * @param address - The paying account.
 * @param maxFee - The transaction's maximal fee (its resource bounds' total).
 * @param what - The transaction, for the message (e.g. "deploy").
 */
export async function assertCanPayFee(
  net: NetworkConfig,
  address: string,
  maxFee: bigint,
  what: string,
): Promise<void> {
  const balance = await strkBalanceOf(net, address);
  if (balance < maxFee) {
    throw snapError(
      INSUFFICIENT_ACCOUNT_BALANCE,
      `The account ${address} holds ${formatUnits(balance)}, less than the ${what}'s maximal fee ${formatUnits(maxFee)}; fund it with STRK first`,
      { balance: balance.toString(), maxFee: maxFee.toString() },
    );
  }
}
