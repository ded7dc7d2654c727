import { describe, expect, it } from 'vitest';
import type { MethodTraits } from '../types.js';
import { ethFamily } from './ethFamily.js';
import { ethMethods } from './ethMethods.js';

const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const FROM = '0x000000000000000000000000000000000000dEaD';
const HASH = `0x${'ab'.repeat(32)}`;
const CALL = { from: FROM, to: TOKEN, data: '0x70a08231' };

/** Real-shaped params for every row with `contracts`, and what it must name. */
const CASES: Record<string, Array<[params: unknown[], expected: readonly string[] | undefined]>> = {
  eth_call: [
    [[CALL, 'latest'], [TOKEN]],
    [[{ ...CALL, to: undefined }, 'latest'], []],
    [[{ from: FROM, to: null, data: '0x6080' }, { blockHash: HASH }], []],
    // state overrides: the accounts overridden are named; code and storage reach every contract
    [
      [CALL, 'latest', { [WETH]: { balance: '0x1', nonce: '0x2' } }],
      [TOKEN, WETH],
    ],
    [[CALL, 'latest', { [TOKEN]: { code: '0x6000' } }], []],
    [[CALL, 'latest', { [TOKEN]: { stateDiff: { [HASH]: HASH } } }], []],
    [[CALL, 'latest', { [TOKEN]: { state: { [HASH]: HASH } } }], []],
    [[CALL, 'latest', { [TOKEN]: { movePrecompileToAddress: WETH } }], []],
    [[CALL, 'latest', null, null], [TOKEN]],
    // block overrides: the fee recipient is named; withdrawals reach every contract
    [[CALL, 'latest', {}, { number: '0x10', time: '0x5' }], [TOKEN]],
    [
      [CALL, 'latest', null, { feeRecipient: WETH }],
      [TOKEN, WETH],
    ],
    [[CALL, 'latest', null, { withdrawals: [{ address: WETH, amount: '0x1' }] }], []],
    // the access list's addresses; the sender when the call pays (its balance is read)
    [
      [{ ...CALL, accessList: [{ address: WETH, storageKeys: [HASH] }] }, 'latest'],
      [TOKEN, WETH],
    ],
    [
      [{ ...CALL, value: '0x1' }, 'latest'],
      [TOKEN, FROM],
    ],
    [[{ ...CALL, value: '0x0', gasPrice: '0x0' }, 'latest'], [TOKEN]],
    [[{ ...CALL, authorizationList: [{ address: WETH, chainId: '0x1', nonce: '0x0' }] }, 'latest'], []],
  ],
  eth_estimateGas: [
    [[CALL], [TOKEN]],
    [[{ from: FROM, data: '0x6080' }], []],
    [
      [CALL, 'latest', { [FROM]: { balance: '0xffff' } }],
      [TOKEN, FROM],
    ],
    [[CALL, 'latest', { [TOKEN]: { code: '0x6000' } }], []],
  ],
  eth_createAccessList: [
    [[CALL, 'pending'], [TOKEN]],
    [
      [{ ...CALL, accessList: [{ address: WETH, storageKeys: [] }] }, 'pending'],
      [TOKEN, WETH],
    ],
  ],
  eth_getLogs: [
    [[{ fromBlock: '0x1', toBlock: 'latest', address: TOKEN }], [TOKEN]],
    [[{ blockHash: HASH, address: [TOKEN, WETH], topics: [null, HASH] }], [TOKEN, WETH]],
    [[{ fromBlock: '0x1', toBlock: '0x2' }], []],
    [[{ fromBlock: '0x1', address: [] }], []],
  ],
  eth_newFilter: [
    [[{ address: WETH, topics: [HASH] }], [WETH]],
    [[{ fromBlock: 'latest' }], []],
  ],
  eth_subscribe: [
    [['logs', { address: [TOKEN], topics: [HASH] }], [TOKEN]],
    [['logs', {}], []],
    [['logs'], []],
    [['newHeads'], undefined],
  ],
  eth_getBalance: [[[FROM, 'latest'], [FROM]]],
  eth_getCode: [[[TOKEN, { blockNumber: '0x10' }], [TOKEN]]],
  eth_getStorageAt: [[[TOKEN, '0x0', 'latest'], [TOKEN]]],
  eth_getTransactionCount: [[[FROM, 'pending'], [FROM]]],
  eth_getProof: [[[TOKEN, ['0x1'], 'latest'], [TOKEN]]],
};

const table: Readonly<Record<string, MethodTraits>> = ethMethods;
const withContracts = Object.keys(table).filter((m) => table[m]!.contracts !== undefined);

describe('eth rows: contracts', () => {
  it('the rows that name contracts are exactly the ones covered here', () => {
    expect(withContracts.sort()).toEqual(Object.keys(CASES).sort());
    for (const m of [
      'eth_call',
      'eth_estimateGas',
      'eth_getLogs',
      'eth_getBalance',
      'eth_getCode',
      'eth_getStorageAt',
    ]) {
      expect(withContracts).toContain(m);
    }
    expect(table.eth_blockNumber!.contracts).toBeUndefined();
    expect(table.eth_sendRawTransaction!.contracts).toBeUndefined();
  });

  for (const [method, cases] of Object.entries(CASES)) {
    it(`${method} names the contracts of its params (as sent and as validated)`, () => {
      const contracts = table[method]!.contracts!;
      for (const [params, expected] of cases) {
        expect(contracts(params)).toEqual(expected);
        // The same params pass validation, and the forwarded params name the same contracts.
        const call = ethFamily.prepare({ id: 1, method, params }, { transport: 'ws', dev: false });
        expect(call.policy.contracts?.(call.upstreamParams)).toEqual(expected);
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
      [5],
      [[]],
      [{ to: 5 }],
      [{ address: [TOKEN, 7] }],
      [{ address: {} }],
    ];
    for (const method of withContracts) {
      for (const params of odd) {
        const named = table[method]!.contracts!(params);
        if (method === 'eth_subscribe') expect(named === undefined || named.length === 0).toBe(true);
        else expect(named).toEqual([]);
      }
    }
  });
});
