import { type StarknetHttpMethodName, starknetHttpMethodNames } from '@nodegate/starknet-spec';
import { createSpecValidator } from '@nodegate/starknet-spec/conformance';
import { declareV3, deployAccountV3, invokeV3, transferCalldata } from '@nodegate/starknet-devchain/testing';
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../errors/GatewayError.js';
import type { CallContext } from '../FamilyHandler.js';
import { createStarknetFamily } from './createStarknetFamily.js';

// Whether the gateway's Starknet tables require exactly what the specification requires, field by field: each
// request below is valid for the published 0.10.2 schemas (checked with Ajv first); then each of its params, each
// field of an object param and each field of the objects in an array param is left out in turn. When the
// specification still allows the request, the gateway must take it (it requires nothing the spec leaves optional);
// when the specification refuses it, the gateway must refuse it with -32602 (it requires everything the spec
// requires). Nothing is sent anywhere: the gateway's check runs before any upstream call.
const spec = createSpecValidator(
  new URL('../../../../../../shared/fixtures/starknet-specs-0.10.2/api', import.meta.url).pathname,
);
const family = createStarknetFamily({ maxChunkSize: 1024, pendingTag: 'pre_confirmed' });
const ctx = { dev: true, transport: 'http' } as unknown as CallContext;
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const KEY = '0x1234567890abcdef';
const SENDER = '0x64b48806902a367c8598f4f95c305e8c1a1acba5f082d294a43793113115691';
const invoke = invokeV3(SENDER, transferCalldata(STRK, '0x123', 1n), 0n, KEY).tx;
const declare = declareV3(SENDER, 'spec-required', 0n, KEY).tx;
const deploy = deployAccountV3('0x1', ['0x2'], '0x42', KEY).tx;
const block = { block_number: 1 };

/** Requests the specification allows, with every optional param and field it has filled in. */
const samples: Record<StarknetHttpMethodName, Record<string, unknown>> = {
  specVersion: {},
  chainId: {},
  blockNumber: {},
  blockHashAndNumber: {},
  syncing: {},
  getBlockWithTxHashes: { block_id: block },
  getBlockWithTxs: { block_id: block, response_flags: ['INCLUDE_PROOF_FACTS'] },
  getBlockWithReceipts: { block_id: { block_hash: '0x1' }, response_flags: [] },
  getStateUpdate: { block_id: 'latest', contract_addresses: [STRK] },
  getStorageAt: { contract_address: STRK, key: '0x1', block_id: 'latest', response_flags: [] },
  getTransactionStatus: { transaction_hash: '0x1' },
  getMessagesStatus: { transaction_hash: `0x${'ab'.repeat(32)}` },
  getTransactionByHash: { transaction_hash: '0x1', response_flags: [] },
  getTransactionByBlockIdAndIndex: { block_id: block, index: 0, response_flags: [] },
  getTransactionReceipt: { transaction_hash: '0x1' },
  getClass: { block_id: 'latest', class_hash: '0x1' },
  getClassHashAt: { block_id: 'latest', contract_address: STRK },
  getClassAt: { block_id: 'latest', contract_address: STRK },
  getBlockTransactionCount: { block_id: block },
  call: {
    request: { contract_address: STRK, entry_point_selector: hash.getSelectorFromName('balance_of'), calldata: [] },
    block_id: 'latest',
  },
  estimateFee: { request: [invoke, declare, deploy], simulation_flags: ['SKIP_VALIDATE'], block_id: 'latest' },
  estimateMessageFee: {
    message: {
      from_address: '0x8453fc6cd1bcfe8d4dfc069c400b433054d47bdc',
      to_address: STRK,
      entry_point_selector: '0x2',
      payload: [],
    },
    block_id: 'latest',
  },
  getEvents: {
    filter: {
      from_block: block,
      to_block: 'latest',
      address: STRK,
      keys: [['0x1']],
      continuation_token: '1',
      chunk_size: 10,
    },
  },
  getNonce: { block_id: 'latest', contract_address: STRK },
  getStorageProof: {
    block_id: 'latest',
    class_hashes: ['0x1'],
    contract_addresses: [STRK],
    contracts_storage_keys: [{ contract_address: STRK, storage_keys: ['0x1'] }],
  },
  getCompiledCasm: { class_hash: '0x1' },
  traceTransaction: { transaction_hash: '0x1' },
  simulateTransactions: { block_id: 'latest', transactions: [invoke, deploy], simulation_flags: ['SKIP_FEE_CHARGE'] },
  traceBlockTransactions: { block_id: block, trace_flags: ['RETURN_INITIAL_READS'] },
  addInvokeTransaction: { invoke_transaction: invoke },
  addDeclareTransaction: { declare_transaction: declare },
  addDeployAccountTransaction: { deploy_account_transaction: deploy },
};

/** The gateway's answer to `params`: 'ok', or the -32602 message (any other error fails the test). */
function gateway(method: string, params: Record<string, unknown>): string {
  try {
    family.prepare({ jsonrpc: '2.0', id: 1, method: `starknet_${method}`, params } as never, ctx);
    return 'ok';
  } catch (e) {
    if (e instanceof GatewayError && e.code === -32602) return e.message;
    throw e;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const without = (o: Record<string, unknown>, k: string) =>
  Object.fromEntries(Object.entries(o).filter(([x]) => x !== k));

/** Every request with one param, or one field of one object inside a param, left out; and where it was. */
function variants(params: Record<string, unknown>): { where: string; params: Record<string, unknown> }[] {
  const out: { where: string; params: Record<string, unknown> }[] = [];
  for (const [name, value] of Object.entries(params)) {
    out.push({ where: name, params: without(params, name) });
    if (isObject(value)) {
      for (const k of Object.keys(value))
        out.push({ where: `${name}.${k}`, params: { ...params, [name]: without(value, k) } });
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (!isObject(item)) return;
        for (const k of Object.keys(item)) {
          const list = value.map((x, j) => (j === i ? without(item, k) : x));
          out.push({ where: `${name}[${i}].${k}`, params: { ...params, [name]: list } });
        }
      });
    }
  }
  return out;
}

describe("the gateway's Starknet tables require what spec 0.10.2 requires, no more and no less", () => {
  it('has a request for every HTTP method', () => {
    expect(Object.keys(samples).sort()).toEqual([...starknetHttpMethodNames].sort());
  });

  for (const method of starknetHttpMethodNames) {
    it(`starknet_${method}`, () => {
      const full = samples[method];
      expect(spec.checkParams(method, full), 'the sample itself breaks the spec').toBeUndefined();
      expect(gateway(method, full)).toBe('ok');
      for (const v of variants(full)) {
        const specAllows = spec.checkParams(method, v.params) === undefined;
        const answer = gateway(method, v.params);
        if (specAllows) expect(answer, `without ${v.where}: the spec allows it`).toBe('ok');
        else expect(answer, `without ${v.where}: the spec requires it`).not.toBe('ok');
      }
    });
  }

  it('getEvents without from_block and to_block is taken (it was refused: "filter.from_block ... (required)")', () => {
    expect(gateway('getEvents', { filter: { chunk_size: 5 } })).toBe('ok');
    expect(gateway('getEvents', { filter: { from_block: 'latest', chunk_size: 5 } })).toBe('ok');
    expect(gateway('getEvents', { filter: { to_block: block } })).toMatch(/filter\.chunk_size: expected a value/);
  });
});
