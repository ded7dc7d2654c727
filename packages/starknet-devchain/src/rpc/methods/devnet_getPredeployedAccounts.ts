import { toHex } from '../../felt.js';
import type { MethodContext, Params } from '../types.js';

/** devnet_getPredeployedAccounts: the funded accounts with their keys (optionally current balances). */
export function devnet_getPredeployedAccounts(ctx: MethodContext, p: Params): Record<string, unknown>[] {
  const chain = ctx.node.chain;
  return chain.accounts.map((a) => {
    const out: Record<string, unknown> = {
      initial_balance: a.initialBalance.toString(),
      address: toHex(a.address),
      public_key: toHex(a.publicKey),
      private_key: toHex(a.privateKey),
    };
    if (p.with_balance === true) {
      out.balance = {
        eth: { amount: chain.balanceOf(a.address, 'WEI').toString(), unit: 'WEI' },
        strk: { amount: chain.balanceOf(a.address, 'FRI').toString(), unit: 'FRI' },
      };
    }
    return out;
  });
}
