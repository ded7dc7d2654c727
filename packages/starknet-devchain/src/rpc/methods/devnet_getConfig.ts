import { nativeClasses } from '../../contracts/registry.js';
import { toHex } from '../../felt.js';
import type { MethodContext } from '../types.js';

/** devnet_getConfig: the chain's configuration. */
export function devnet_getConfig(ctx: MethodContext): Record<string, unknown> {
  const c = ctx.node.chain.config;
  return {
    seed: c.seed,
    total_accounts: c.accounts,
    account_contract_class_hash: toHex(nativeClasses.ozAccount.classHash),
    predeployed_accounts_initial_balance: c.initialBalance.toString(),
    chain_id: toHex(c.chainId),
    gas_price_wei: Number(c.prices.wei.l1),
    gas_price_fri: Number(c.prices.fri.l1),
    data_gas_price_wei: Number(c.prices.wei.l1Data),
    data_gas_price_fri: Number(c.prices.fri.l1Data),
    l2_gas_price_wei: Number(c.prices.wei.l2),
    l2_gas_price_fri: Number(c.prices.fri.l2),
    sequencer_address: toHex(c.sequencer),
    // a forked chain's origin (its URL without credentials) and fork block, as starknet-devnet's fork_config
    fork_config: c.fork
      ? { url: ctx.node.forkOrigin?.shownUrl ?? null, block_number: c.fork.blockNumber }
      : { url: null, block_number: null },
  };
}
