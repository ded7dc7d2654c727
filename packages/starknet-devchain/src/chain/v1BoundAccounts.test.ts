// v1-bound accounts: the version get_execution_info shows Sierra code of a v1-bound class. The class that runs is
// nodegate's tx_info test contract (its __execute__ returns what the execution info shows it, the version second);
// to run it as a v1-bound class it is declared here under OpenZeppelin account 0.8's class hash, which is in
// Starknet's list (a state takes a class under any hash; the sequencer's rule looks at the hash only).
import { describe, expect, it } from 'vitest';
import type { TxInfo } from '../contracts/types.js';
import { computeSierraClassHash } from '../contracts/sierraClass.js';
import { selector } from '../crypto/hashes.js';
import { parseContractClass } from './parseContractClass.js';
import { readTestContract } from '../testing/readTestContract.js';
import { type ExecEnv, runEntryPoint } from './execute.js';
import { StateOverlay, VersionedState } from './state.js';
import { QUERY_BIT } from './transaction.js';
import { executionInfoVersion, V1_BOUND_ACCOUNTS_CAIRO1, V1_BOUND_ACCOUNTS_MAX_TIP } from './v1BoundAccounts.js';

const OZ_ACCOUNT_080 = 0x05400e90f7e0ae78bd02c77cd75527280470e2fe19c54970dd79dc37a9d3645cn;
const BOUND_ADDRESS = 0xb0b0n;
const PLAIN_ADDRESS = 0xc0c0n;

const txInfo = (version: bigint, tip: bigint): TxInfo => ({
  hash: 0x1234n,
  version,
  account: BOUND_ADDRESS,
  nonce: 0n,
  signature: [],
  chainId: 0x534e5f5345504f4c4941n,
  tip,
  resourceBounds: {
    l1_gas: { max_amount: 0n, max_price_per_unit: 1n },
    l2_gas: { max_amount: 10n ** 7n, max_price_per_unit: 1n },
    l1_data_gas: { max_amount: 100n, max_price_per_unit: 1n },
  },
});

/** The version the tx_info contract at `address` reads from get_execution_info in a transaction of `tx`. */
function versionSeen(address: bigint, tx: TxInfo): bigint {
  const cls = parseContractClass(readTestContract('tx_info'));
  const state = new StateOverlay(new VersionedState().at(0));
  state.declare(OZ_ACCOUNT_080, cls, 0x1n);
  state.declare(computeSierraClassHash(cls), cls, 0x1n);
  state.deploy(BOUND_ADDRESS, OZ_ACCOUNT_080);
  state.deploy(PLAIN_ADDRESS, computeSierraClassHash(cls));
  const env: ExecEnv = { state, tx, blockNumber: 5, blockTimestamp: 1_700_000_000, events: [], messages: [] };
  // __execute__(calls: Array<felt252>) with no calls; it returns an Array<felt252>: its length, the caller, the version
  const out = runEntryPoint(env, address, selector('__execute__'), [0n], 0n);
  return out[2]!;
}

describe('v1-bound accounts (Starknet versioned constants, v1_bound_accounts_cairo1)', () => {
  it("holds the sequencer's list for protocol 0.14.2, OpenZeppelin's account 0.8 among them, and its max tip", () => {
    expect(V1_BOUND_ACCOUNTS_CAIRO1.size).toBe(7);
    expect(V1_BOUND_ACCOUNTS_CAIRO1.has(OZ_ACCOUNT_080)).toBe(true);
    expect(V1_BOUND_ACCOUNTS_MAX_TIP).toBe(8n * 10n ** 12n);
  });

  it('a v3 transaction is shown as version 1 to a v1-bound class (it was shown 3: "Account: invalid tx version")', () => {
    expect(versionSeen(BOUND_ADDRESS, txInfo(3n, 0n))).toBe(1n);
    expect(versionSeen(BOUND_ADDRESS, txInfo(3n, V1_BOUND_ACCOUNTS_MAX_TIP))).toBe(1n);
  });

  it('keeps the query bit: a v3 query version is shown as the v1 query version', () => {
    expect(versionSeen(BOUND_ADDRESS, txInfo(QUERY_BIT + 3n, 0n))).toBe(QUERY_BIT + 1n);
  });

  it('above the max tip, to other classes and for other versions the version is shown as it is', () => {
    expect(versionSeen(BOUND_ADDRESS, txInfo(3n, V1_BOUND_ACCOUNTS_MAX_TIP + 1n))).toBe(3n);
    expect(versionSeen(PLAIN_ADDRESS, txInfo(3n, 0n))).toBe(3n);
    expect(versionSeen(BOUND_ADDRESS, txInfo(1n, 0n))).toBe(1n);
    expect(executionInfoVersion({ version: 0n, tip: 0n }, OZ_ACCOUNT_080)).toBe(0n);
  });
});
