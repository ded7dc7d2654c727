/**
 * Starknet's v1-bound accounts: since protocol 0.13.5 some older account classes, which refuse any transaction
 * version but 1 in `__validate__`/`__execute__`, are shown version 1 by `get_execution_info` when they run a v3
 * transaction, so that they keep working after v1 transactions were dropped. The list, the tip limit and the rule
 * are those of the sequencer's versioned constants (`os_constants.v1_bound_accounts_cairo1` and
 * `v1_bound_accounts_max_tip` of blockifier_versioned_constants_0_14_2.json, the protocol version this chain
 * reports; the list only grows from one version to the next) and of its syscall handler
 * (`tx_version_for_get_execution_info`).
 */
import type { TxInfo } from '../contracts/types.js';
import { QUERY_BIT } from './transaction.js';

/** The Sierra account classes bound to transaction version 1 (among them OpenZeppelin's account 0.8). */
export const V1_BOUND_ACCOUNTS_CAIRO1: ReadonlySet<bigint> = new Set([
  0x01a736d6ed154502257f02b1ccdf4d9d1089f80811cd6acad48e6b6a9d1f2003n,
  0x0737ee2f87ce571a58c6c8da558ec18a07ceb64a6172d5ec46171fbc80077a48n,
  0x05400e90f7e0ae78bd02c77cd75527280470e2fe19c54970dd79dc37a9d3645cn,
  0x04c6d6cf894f8bc96bb9c525e6853e5483177841f7388f74a46cfda6f028c755n,
  0x01c0bb51e2ce73dc007601a1e7725453627254016c28f118251a71bbb0507fcbn,
  0x0251830adc3d8b4d818c2c309d71f1958308e8c745212480c26e01120c69ee49n,
  0x0251cac7b2f45d255b83b7a06dcdef70c8a8752f00ea776517c1c2243c7a06e5n,
]);

/** Above this tip a v3 transaction is shown as it is, even to a v1-bound account (8·10^12). */
export const V1_BOUND_ACCOUNTS_MAX_TIP = 0x746a5288000n;

/**
 * The transaction version `get_execution_info` shows code of class `classHash` (the class of the running call, a
 * library call's class included): 1 (keeping the query bit) when the transaction is v3, the class is v1-bound and
 * the tip is at most {@link V1_BOUND_ACCOUNTS_MAX_TIP}; else the transaction's own version.
 *
 * @example
 * executionInfoVersion({ ...info, version: 3n, tip: 0n }, 0x05400e90f7e0ae78bd02c77cd75527280470e2fe19c54970dd79dc37a9d3645cn) // 1n
 */
export function executionInfoVersion(tx: Pick<TxInfo, 'version' | 'tip'>, classHash: bigint): bigint {
  const query = tx.version >= QUERY_BIT;
  const base = query ? tx.version - QUERY_BIT : tx.version;
  if (base !== 3n || !V1_BOUND_ACCOUNTS_CAIRO1.has(classHash) || (tx.tip ?? 0n) > V1_BOUND_ACCOUNTS_MAX_TIP) {
    return tx.version;
  }
  return query ? QUERY_BIT + 1n : 1n;
}
