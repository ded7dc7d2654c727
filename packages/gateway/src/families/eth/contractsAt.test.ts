import { describe, expect, it } from 'vitest';
import { type KeySettings, OPEN_SETTINGS } from '../../keys/KeySettings.js';
import { contractsAllowed } from '../../keys/restrictions/contractsAllowed.js';
import type { MethodPolicy } from '../types.js';
import { contractsAt } from './contractsAt.js';
import { ethFamily } from './ethFamily.js';
import { ethDevMethod, ethMethods } from './ethMethods.js';

const ALLOWED = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const FOREIGN = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const HASH = `0x${'ab'.repeat(32)}`;
const restricted: KeySettings = { ...OPEN_SETTINGS, allowedContracts: [ALLOWED] };
const table: Readonly<Record<string, MethodPolicy>> = ethMethods;

/**
 * Every param name of the eth table, by whether it can name an address. A row gaining a param
 * of a new kind fails here until someone says whether (and where) it names addresses.
 */
const ADDRESS_FREE = new Set([
  'storage position',
  'block parameter',
  'block hash',
  'transaction details flag',
  'transaction hash',
  'transaction index',
  'storage keys',
  'block count',
  'newest block',
  'reward percentiles',
  'uncle index',
  'filter id',
  'subscription type',
  'subscription id',
  'data',
  // writes and signing (dev chains only): what a signed transaction does is its signer's
  'signed transaction',
  'message',
  'typed data',
]);

/** For each param that names addresses: a value naming only ALLOWED, and values that must be refused. */
const ADDRESS_BEARING: Record<string, { allowed: unknown; refused: unknown[] }> = {
  address: { allowed: ALLOWED, refused: [FOREIGN] },
  'transaction call object': {
    allowed: { from: FOREIGN, to: ALLOWED, data: '0x' },
    refused: [
      { to: FOREIGN, data: '0x' },
      { data: '0x6000' }, // a creation runs any init code
      { to: ALLOWED, accessList: [{ address: FOREIGN, storageKeys: [HASH] }] },
      { from: FOREIGN, to: ALLOWED, value: '0x1' },
      { from: FOREIGN, to: ALLOWED, maxFeePerGas: '0x3b9aca00' },
      { to: ALLOWED, authorizationList: [{ address: FOREIGN, chainId: '0x1', nonce: '0x0' }] },
    ],
  },
  'state overrides': {
    allowed: { [ALLOWED]: { balance: '0xde0b6b3a7640000', nonce: '0x1' } },
    refused: [
      { [FOREIGN]: { balance: '0x1' } },
      { [ALLOWED]: { code: '0x6000' } },
      { [ALLOWED]: { state: { [HASH]: HASH } } },
      { [ALLOWED]: { stateDiff: { [HASH]: HASH } } },
      { [ALLOWED]: { movePrecompileToAddress: FOREIGN } },
      { [ALLOWED]: { aFieldFromTheFuture: '0x1' } },
      { 'not an address': { balance: '0x1' } },
    ],
  },
  'block overrides': {
    allowed: { number: '0x10', time: '0x64', gasLimit: '0x1c9c380', baseFeePerGas: '0x1', feeRecipient: ALLOWED },
    refused: [
      { feeRecipient: FOREIGN },
      { coinbase: FOREIGN },
      { withdrawals: [{ index: '0x0', validatorIndex: '0x0', address: FOREIGN, amount: '0x1' }] },
      { aFieldFromTheFuture: '0x1' },
    ],
  },
  filter: {
    allowed: { address: [ALLOWED], fromBlock: '0x0', toBlock: 'latest' },
    refused: [{ address: FOREIGN }, { address: [ALLOWED, FOREIGN] }, { fromBlock: '0x0' }],
  },
  'subscription options': { allowed: { address: ALLOWED }, refused: [{ address: FOREIGN }, {}] },
};

/** A valid value for each address-free param, to fill the rest of a row's params. */
const FILLER: Record<string, unknown> = {
  'storage position': '0x0',
  'block parameter': 'latest',
  'storage keys': [HASH],
  'subscription type': 'logs',
};

/** What the row names for `params` once the family has validated them (as the pipeline reads it). */
function named(method: string, params: unknown[]): readonly string[] | undefined {
  const call = ethFamily.prepare({ id: 1, method, params }, { transport: 'ws', dev: true });
  return call.policy.contracts?.(call.upstreamParams);
}

describe('eth rows: every address a call can name is read for the contract allowlist', () => {
  it('every param name of the table is classified (a new kind must say whether it names addresses)', () => {
    for (const [method, row] of Object.entries(table)) {
      for (const param of row.params) {
        const free = ADDRESS_FREE.has(param.name);
        const bearing = Object.hasOwn(ADDRESS_BEARING, param.name);
        expect(free !== bearing, `${method}: param "${param.name}"`).toBe(true);
      }
    }
  });

  // Reads, filters and subscriptions: writes and node-held-key signing are not restricted by contract.
  const restrictedRows = Object.entries(table).filter(([, row]) => row.kind !== 'write' && !row.devOnly);
  for (const [method, row] of restrictedRows) {
    const sites = row.params.flatMap((p, i) => (Object.hasOwn(ADDRESS_BEARING, p.name) ? [i] : []));
    if (sites.length === 0) continue;
    it(`${method}: each address-bearing param (${sites.map((i) => row.params[i]!.name).join(', ')}) is checked`, () => {
      const base = row.params.map((p) =>
        Object.hasOwn(ADDRESS_BEARING, p.name) ? ADDRESS_BEARING[p.name]!.allowed : FILLER[p.name],
      );
      // everything named is the allowed contract: passes
      expect(contractsAllowed(restricted, named(method, base)), JSON.stringify(base)).toBe(true);
      for (const i of sites) {
        for (const value of ADDRESS_BEARING[row.params[i]!.name]!.refused) {
          const params = base.map((v, j) => (j === i ? value : v));
          expect(contractsAllowed(restricted, named(method, params)), JSON.stringify(params)).toBe(false);
          // a key without a contract allowlist is not affected
          expect(contractsAllowed(OPEN_SETTINGS, named(method, params))).toBe(true);
        }
      }
    });
  }

  it('anvil_*/evm_* on a dev network reach every contract (anvil_setCode…): refused for a restricted key', () => {
    expect(contractsAllowed(restricted, ethDevMethod.contracts?.([ALLOWED, '0x6000']))).toBe(false);
    expect(contractsAllowed(restricted, named('anvil_setCode', [ALLOWED, '0x6000']))).toBe(false);
    expect(contractsAllowed(restricted, named('evm_mine', []))).toBe(false);
    expect(contractsAllowed(OPEN_SETTINGS, named('anvil_setCode', [ALLOWED, '0x6000']))).toBe(true);
  });
});

describe('contractsAt', () => {
  const callLike = contractsAt(
    { at: 0, holds: 'call' },
    { at: 2, holds: 'stateOverrides' },
    { at: 3, holds: 'blockOverrides' },
  );
  it('names every site in order; absent or null optional params name nothing', () => {
    expect(callLike([{ to: ALLOWED }])).toEqual([ALLOWED]);
    expect(callLike([{ to: ALLOWED }, 'latest', null, null])).toEqual([ALLOWED]);
    expect(callLike([{ to: ALLOWED }, 'latest', {}, {}])).toEqual([ALLOWED]);
    expect(callLike([{ to: ALLOWED }, 'latest', { [FOREIGN]: { balance: '0x1' } }, { coinbase: ALLOWED }])).toEqual([
      ALLOWED,
      FOREIGN,
      ALLOWED,
    ]);
    // null fields set nothing
    expect(callLike([{ to: ALLOWED }, 'latest', { [ALLOWED]: { code: null, balance: '0x1' } }])).toEqual([
      ALLOWED,
      ALLOWED,
    ]);
  });
  it('one site reaching every contract makes the whole call [] (addresses named elsewhere do not help)', () => {
    expect(callLike([{ to: ALLOWED }, 'latest', { [ALLOWED]: { code: '0x00' } }, { feeRecipient: ALLOWED }])).toEqual(
      [],
    );
    expect(callLike([{ to: ALLOWED }, 'latest', 'not an object'])).toEqual([]);
    expect(callLike([{ to: ALLOWED }, 'latest', { [ALLOWED]: 5 }])).toEqual([]);
    expect(callLike([{ to: ALLOWED, accessList: {} }])).toEqual([]);
    expect(callLike({ to: ALLOWED })).toEqual([]);
  });
  it('a logs subscription names its filter; other subscriptions name nothing', () => {
    const sub = contractsAt({ at: 1, holds: 'logsSubscription' });
    expect(sub(['logs', { address: [ALLOWED, FOREIGN] }])).toEqual([ALLOWED, FOREIGN]);
    expect(sub(['logs'])).toEqual([]);
    expect(sub(['newHeads'])).toBeUndefined();
  });
});
