import { describe, expect, it } from 'vitest';
import type { MethodTraits } from '../types.js';
import { createStarknetFamily } from './createStarknetFamily.js';
import { starknetMethods } from './starknetMethods.js';

const ETH_TOKEN = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
const STRK_TOKEN = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const ACCOUNT = '0x64b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691';
const SELECTOR = '0x2e4263afad30923c891518314c3c95dbe830a16874e8abc5777a9a20b54c76e';
const BLOCK = { block_number: 10 };
const V3 = {
  version: '0x3',
  signature: ['0x1', '0x2'],
  nonce: '0x0',
  resource_bounds: {
    l1_gas: { max_amount: '0x0', max_price_per_unit: '0x1' },
    l2_gas: { max_amount: '0x100', max_price_per_unit: '0x1' },
    l1_data_gas: { max_amount: '0x10', max_price_per_unit: '0x1' },
  },
  tip: '0x0',
  paymaster_data: [],
  nonce_data_availability_mode: 'L1',
  fee_data_availability_mode: 'L1',
};
/** A Cairo 1 multicall of one transfer (what the dev chain's and standard accounts take). */
const INVOKE = {
  type: 'INVOKE',
  sender_address: ACCOUNT,
  calldata: ['0x1', ETH_TOKEN, SELECTOR, '0x3', ACCOUNT, '0x5', '0x0'],
  account_deployment_data: [],
  ...V3,
};
/** Two calls: ETH then STRK. */
const MULTICALL = ['0x2', ETH_TOKEN, SELECTOR, '0x1', '0x5', STRK_TOKEN, SELECTOR, '0x0'];
/** The legacy layout: [n, (to, selector, offset, len)*, total, ...data]. */
const CAIRO0_MULTICALL = ['0x1', STRK_TOKEN, SELECTOR, '0x0', '0x2', '0x2', '0x7', '0x8'];
const DECLARE = {
  type: 'DECLARE',
  sender_address: ACCOUNT,
  contract_class: {},
  compiled_class_hash: '0x1',
  account_deployment_data: [],
  ...V3,
};
const DEPLOY_ACCOUNT = {
  type: 'DEPLOY_ACCOUNT',
  class_hash: '0x1',
  contract_address_salt: '0x2',
  constructor_calldata: [],
  ...V3,
};

const family = createStarknetFamily({ maxChunkSize: 1000, pendingTag: 'pre_confirmed' });
// over WebSocket, where every row (the subscriptions included) is served
const ctx = { transport: 'ws', dev: false } as const;

/** Real-shaped named params for every row with `contracts`, and what it must name. */
const CASES: Record<string, Array<[params: Record<string, unknown>, expected: readonly string[] | undefined]>> = {
  call: [
    [
      {
        request: { contract_address: ETH_TOKEN, entry_point_selector: SELECTOR, calldata: [ACCOUNT] },
        block_id: 'latest',
      },
      [ETH_TOKEN],
    ],
  ],
  getStorageAt: [[{ contract_address: ETH_TOKEN, key: '0x1', block_id: BLOCK }, [ETH_TOKEN]]],
  getNonce: [[{ block_id: 'pending', contract_address: ACCOUNT }, [ACCOUNT]]],
  getClassAt: [[{ block_id: { block_hash: '0x1' }, contract_address: STRK_TOKEN }, [STRK_TOKEN]]],
  getClassHashAt: [[{ block_id: 'latest', contract_address: STRK_TOKEN }, [STRK_TOKEN]]],
  getEvents: [
    [
      { filter: { from_block: BLOCK, to_block: 'latest', address: ETH_TOKEN, keys: [[SELECTOR]], chunk_size: 100 } },
      [ETH_TOKEN],
    ],
    [
      { filter: { from_block: BLOCK, to_block: 'latest', address: [ETH_TOKEN, STRK_TOKEN], chunk_size: 10 } },
      [ETH_TOKEN, STRK_TOKEN],
    ],
    [{ filter: { from_block: BLOCK, to_block: 'latest', chunk_size: 10 } }, []],
  ],
  subscribeEvents: [
    [{ from_address: ETH_TOKEN, keys: [[SELECTOR]] }, [ETH_TOKEN]],
    [{ from_address: [ETH_TOKEN, STRK_TOKEN], finality_status: 'PRE_CONFIRMED' }, [ETH_TOKEN, STRK_TOKEN]],
    [{ keys: [[SELECTOR]] }, []],
  ],
  // simulations run the sender's account code and its multicall's targets
  estimateFee: [
    [{ request: [INVOKE], simulation_flags: [], block_id: 'latest' }, [ACCOUNT, ETH_TOKEN]],
    [
      { request: [INVOKE, { ...INVOKE, calldata: MULTICALL }], simulation_flags: ['SKIP_VALIDATE'], block_id: BLOCK },
      [ACCOUNT, ETH_TOKEN, ACCOUNT, ETH_TOKEN, STRK_TOKEN],
    ],
    [{ request: [INVOKE, DECLARE], simulation_flags: [], block_id: 'latest' }, []],
    [{ request: [DEPLOY_ACCOUNT], simulation_flags: [], block_id: 'latest' }, []],
    [{ request: [{ ...INVOKE, calldata: ['0x1', ETH_TOKEN] }], simulation_flags: [], block_id: 'latest' }, []],
    [{ request: [{ ...INVOKE, paymaster_data: ['0x1'] }], simulation_flags: [], block_id: 'latest' }, []],
    [{ request: [{ ...INVOKE, account_deployment_data: ['0x1'] }], simulation_flags: [], block_id: 'latest' }, []],
  ],
  simulateTransactions: [
    [{ block_id: 'latest', transactions: [INVOKE], simulation_flags: [] }, [ACCOUNT, ETH_TOKEN]],
    [
      { block_id: 'latest', transactions: [{ ...INVOKE, calldata: CAIRO0_MULTICALL }], simulation_flags: [] },
      [ACCOUNT, STRK_TOKEN],
    ],
    [{ block_id: 'latest', transactions: [DEPLOY_ACCOUNT, INVOKE], simulation_flags: [] }, []],
  ],
  estimateMessageFee: [
    [
      {
        message: {
          from_address: '0x8453fc6cd1bcfe8d4dfc069c400b433054d47bdc',
          to_address: STRK_TOKEN,
          entry_point_selector: SELECTOR,
          payload: [],
        },
        block_id: 'latest',
      },
      [STRK_TOKEN],
    ],
  ],
  getStorageProof: [
    [{ block_id: 'latest', class_hashes: ['0x1'] }, undefined],
    [
      {
        block_id: 'latest',
        contract_addresses: [ETH_TOKEN],
        contracts_storage_keys: [{ contract_address: STRK_TOKEN, storage_keys: ['0x1'] }],
      },
      [ETH_TOKEN, STRK_TOKEN],
    ],
  ],
};

const table: Readonly<Record<string, MethodTraits & { params: readonly string[] }>> = starknetMethods;
const withContracts = Object.keys(table).filter((m) => table[m]!.contracts !== undefined);

describe('starknet rows: contracts', () => {
  it('the rows that name contracts are exactly the ones covered here', () => {
    expect(withContracts.sort()).toEqual(Object.keys(CASES).sort());
    expect(table.chainId!.contracts).toBeUndefined();
  });

  for (const [name, cases] of Object.entries(CASES)) {
    it(`${name} names its contracts from the named params the family forwards`, () => {
      const contracts = table[name]!.contracts!;
      for (const [params, expected] of cases) {
        expect(contracts(params)).toEqual(expected);
        for (const method of [`starknet_${name}`, `stk_${name}`]) {
          // Sent named, and sent positionally in the spec's order: the family maps both to names.
          const positional = table[name]!.params.map((p) => params[p]);
          while (positional.length > 0 && positional[positional.length - 1] === undefined) positional.pop();
          for (const sent of [params, positional]) {
            const call = family.prepare({ id: 1, method, params: sent }, ctx);
            expect(call.policy.contracts?.(call.upstreamParams)).toEqual(expected);
            expect(contracts(sent)).toEqual(expected);
          }
        }
      }
    });
  }

  it('never throws on odd shapes, and names [] so a restricted key is refused', () => {
    const odd: unknown[] = [
      undefined,
      null,
      5,
      'x',
      {},
      [],
      [null],
      { request: 5 },
      { contract_address: 7 },
      { filter: { address: [1] } },
    ];
    for (const name of withContracts) {
      for (const params of odd) {
        const named = table[name]!.contracts!(params);
        if (name === 'getStorageProof') expect(named === undefined || named.length === 0).toBe(true);
        else expect(named).toEqual([]);
      }
    }
    expect(table.getStorageProof!.contracts!({ contract_addresses: 'x' })).toEqual([]);
    expect(table.getStorageProof!.contracts!({ contracts_storage_keys: [{}] })).toEqual([]);
    // a call without its contract names every contract (and the family refuses it: the spec requires the field)
    const noContract = { request: { entry_point_selector: SELECTOR, calldata: [] }, block_id: 'latest' };
    expect(table.call!.contracts!(noContract)).toEqual([]);
    expect(() => family.prepare({ id: 1, method: 'starknet_call', params: noContract }, ctx)).toThrow(
      /request\.contract_address: expected a value \(required\)/,
    );
  });
});
