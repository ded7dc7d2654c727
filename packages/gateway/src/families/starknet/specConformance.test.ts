import {
  type StarknetHttpMethodName,
  type StarknetSpecMethodName,
  starknetHttpMethodNames,
  starknetSpecMethods,
} from '@nodegate/starknet-spec';
import { createSpecValidator } from '@nodegate/starknet-spec/conformance';
import { declareV3, deployAccountV3, invokeV3, rpcResult, transferCalldata } from '@nodegate/starknet-devchain/testing';
import { ec, hash, num } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../test-support/startTestGateway.js';
import { type StarknetTestGateway, startStarknetTestGateway } from '../../test-support/startStarknetTestGateway.js';

// Conformance with Starknet JSON-RPC 0.10: for every HTTP method of the specification, requests
// the specification allows (each checked against its request schema first, optional params
// included) go through nodegate to the dev chain; nodegate must pass them on, and every answer
// must validate against the method's result schema, or be one of the errors the specification
// lists for the method (only where the dev chain cannot serve it, as its README says).
const spec = createSpecValidator(
  new URL('../../../../../../shared/fixtures/starknet-specs-0.10.2/api', import.meta.url).pathname,
);
const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const L1_ADDRESS = '0x8453fc6cd1bcfe8d4dfc069c400b433054d47bdc';

/** A request and what it must give: a result (checked against the schema) or one of the spec's errors. */
interface Sample {
  params: Record<string, unknown>;
  expectError?: number;
}

let t: StarknetTestGateway;
let samples: Record<StarknetHttpMethodName, Sample[]>;

/** The params in the spec's positional order (trailing absent ones left out). */
function positional(method: StarknetSpecMethodName, params: Record<string, unknown>): unknown[] {
  const out = starknetSpecMethods[method].params.map((name) => params[name]);
  while (out.length > 0 && out[out.length - 1] === undefined) out.pop();
  return out;
}

async function send(method: string, params: unknown): Promise<{ result?: unknown; error?: { code: number } }> {
  return (await postJson(t.rpcUrl, { jsonrpc: '2.0', id: 1, method, params })).json as never;
}

beforeAll(async () => {
  t = await startStarknetTestGateway();
  const [a0, a1] = (await rpcResult(t.rpcUrl, 'devnet_getPredeployedAccounts', {})) as {
    address: string;
    private_key: string;
  }[];
  // one transfer, mined: a block, a transaction, a receipt, a trace, an event
  const transfer = invokeV3(a0!.address, transferCalldata(STRK, a1!.address, 10n), 0n, a0!.private_key);
  const sent = await rpcResult(t.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: transfer.tx });
  const tx = sent.transaction_hash as string;
  const receipt = await rpcResult(t.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: tx });
  const n = receipt.block_number as number;
  const blockHash = receipt.block_hash as string;
  const accountClass = await rpcResult(t.rpcUrl, 'starknet_getClassHashAt', {
    block_id: 'latest',
    contract_address: a0!.address,
  });
  const slot = num.toHex(hash.starknetKeccak('ERC20_balances'));
  // transactions to estimate, simulate and send (nonce 1 is next for a0)
  const next = invokeV3(a0!.address, transferCalldata(STRK, a1!.address, 1n), 1n, a0!.private_key);
  const declare = declareV3(a1!.address, 'conformance', 0n, a1!.private_key);
  const newKey = '0x1234567890abcdef';
  const deploy = deployAccountV3(accountClass, [ec.starkCurve.getStarkKey(newKey)], '0x42', newKey);
  const deployAddress = hash.calculateContractAddressFromHash(
    '0x42',
    accountClass,
    [ec.starkCurve.getStarkKey(newKey)],
    0,
  );
  await rpcResult(t.rpcUrl, 'devnet_mint', { address: deployAddress, amount: (10n ** 20n).toString(), unit: 'FRI' });

  samples = {
    specVersion: [{ params: {} }],
    chainId: [{ params: {} }],
    blockNumber: [{ params: {} }],
    blockHashAndNumber: [{ params: {} }],
    syncing: [{ params: {} }],
    getBlockWithTxHashes: [
      { params: { block_id: 'latest' } },
      { params: { block_id: { block_number: n } } },
      { params: { block_id: { block_hash: blockHash } } },
      { params: { block_id: 'pre_confirmed' } },
      { params: { block_id: { block_number: 99_999 } }, expectError: 24 },
    ],
    getBlockWithTxs: [
      { params: { block_id: { block_number: n } } },
      { params: { block_id: { block_number: n }, response_flags: ['INCLUDE_PROOF_FACTS'] } },
      { params: { block_id: 'pre_confirmed', response_flags: [] } },
    ],
    getBlockWithReceipts: [
      { params: { block_id: { block_hash: blockHash } } },
      { params: { block_id: 'latest', response_flags: ['INCLUDE_PROOF_FACTS'] } },
    ],
    getStateUpdate: [
      { params: { block_id: { block_number: n } } },
      { params: { block_id: { block_number: n }, contract_addresses: [STRK] } },
      { params: { block_id: 'pre_confirmed' } },
    ],
    getStorageAt: [
      { params: { contract_address: STRK, key: slot, block_id: 'latest' } },
      {
        params: {
          contract_address: STRK,
          key: slot,
          block_id: 'latest',
          response_flags: ['INCLUDE_LAST_UPDATE_BLOCK'],
        },
      },
      { params: { contract_address: '0x999', key: slot, block_id: 'latest' }, expectError: 20 },
    ],
    getTransactionStatus: [{ params: { transaction_hash: tx } }],
    getMessagesStatus: [{ params: { transaction_hash: `0x${'ab'.repeat(32)}` }, expectError: 29 }],
    getTransactionByHash: [
      { params: { transaction_hash: tx } },
      { params: { transaction_hash: tx, response_flags: ['INCLUDE_PROOF_FACTS'] } },
      { params: { transaction_hash: '0x123' }, expectError: 29 },
    ],
    getTransactionByBlockIdAndIndex: [
      { params: { block_id: { block_number: n }, index: 0 } },
      { params: { block_id: { block_number: n }, index: 0, response_flags: ['INCLUDE_PROOF_FACTS'] } },
      { params: { block_id: { block_number: n }, index: 7 }, expectError: 27 },
    ],
    getTransactionReceipt: [{ params: { transaction_hash: tx } }],
    getClass: [{ params: { block_id: 'latest', class_hash: accountClass } }],
    getClassHashAt: [{ params: { block_id: 'latest', contract_address: a0!.address } }],
    getClassAt: [{ params: { block_id: { block_number: n }, contract_address: STRK } }],
    getBlockTransactionCount: [{ params: { block_id: { block_number: n } } }],
    call: [
      {
        params: {
          request: {
            contract_address: STRK,
            entry_point_selector: hash.getSelectorFromName('balance_of'),
            calldata: [a1!.address],
          },
          block_id: 'latest',
        },
      },
    ],
    estimateFee: [
      { params: { request: [next.tx], simulation_flags: [], block_id: 'latest' } },
      { params: { request: [next.tx, declare.tx], simulation_flags: ['SKIP_VALIDATE'], block_id: 'pre_confirmed' } },
    ],
    estimateMessageFee: [
      {
        // a bridge deposit: the token's L1 handler credits the recipient
        params: {
          message: {
            from_address: L1_ADDRESS,
            to_address: STRK,
            entry_point_selector: hash.getSelectorFromName('handle_deposit'),
            payload: [a1!.address, '0x1', '0x0'],
          },
          block_id: 'latest',
        },
      },
      {
        params: {
          message: {
            from_address: L1_ADDRESS,
            to_address: STRK,
            entry_point_selector: hash.getSelectorFromName('no_such_handler'),
            payload: [],
          },
          block_id: 'latest',
        },
        expectError: 40,
      },
      {
        params: {
          message: { from_address: L1_ADDRESS, to_address: '0x999', entry_point_selector: '0x1', payload: [] },
          block_id: 'latest',
        },
        expectError: 20,
      },
    ],
    getEvents: [
      {
        params: {
          filter: {
            from_block: { block_number: 0 },
            to_block: 'latest',
            address: STRK,
            keys: [[hash.getSelectorFromName('Transfer')]],
            chunk_size: 10,
          },
        },
      },
      { params: { filter: { from_block: { block_number: n }, to_block: { block_number: n }, chunk_size: 1 } } },
    ],
    getNonce: [{ params: { block_id: 'latest', contract_address: a0!.address } }],
    getStorageProof: [{ params: { block_id: 'latest', contract_addresses: [STRK] }, expectError: 42 }],
    getCompiledCasm: [
      { params: { class_hash: accountClass }, expectError: 100 },
      { params: { class_hash: '0x123' }, expectError: 28 },
    ],
    traceTransaction: [{ params: { transaction_hash: tx } }],
    simulateTransactions: [
      { params: { block_id: 'latest', transactions: [next.tx], simulation_flags: [] } },
      {
        params: {
          block_id: 'latest',
          transactions: [next.tx],
          simulation_flags: ['SKIP_FEE_CHARGE', 'RETURN_INITIAL_READS'],
        },
      },
    ],
    traceBlockTransactions: [
      { params: { block_id: { block_number: n } } },
      { params: { block_id: { block_number: n }, trace_flags: ['RETURN_INITIAL_READS'] } },
    ],
    addInvokeTransaction: [{ params: { invoke_transaction: next.tx } }],
    addDeclareTransaction: [{ params: { declare_transaction: declare.tx } }],
    addDeployAccountTransaction: [{ params: { deploy_account_transaction: deploy.tx } }],
  };
});

afterAll(async () => {
  await t?.stop();
});

describe('Starknet JSON-RPC 0.10 conformance through nodegate', () => {
  it('has requests for every HTTP method of the specification', () => {
    expect(Object.keys(samples).sort()).toEqual([...starknetHttpMethodNames].sort());
  });

  // reads first, writes last (they change the chain the reads were built on)
  const order = [...starknetHttpMethodNames].sort(
    (a, b) => Number(starknetSpecMethods[a].api === 'write') - Number(starknetSpecMethods[b].api === 'write'),
  );
  for (const method of order) {
    it(`starknet_${method}: requests the spec allows are served and answers match the spec`, async () => {
      for (const [i, sample] of samples[method].entries()) {
        const where = `starknet_${method} sample ${i} ${JSON.stringify(sample.params).slice(0, 200)}`;
        expect(spec.checkParams(method, sample.params), `${where}: the sample itself breaks the spec`).toBeUndefined();
        const answer = await send(`starknet_${method}`, sample.params);
        if (sample.expectError !== undefined) {
          expect(answer.error?.code, `${where}: ${JSON.stringify(answer).slice(0, 300)}`).toBe(sample.expectError);
          expect(spec.errorCodes(method), `${where}: error ${sample.expectError} is not one the spec lists`).toContain(
            sample.expectError,
          );
          continue;
        }
        expect(answer.error, `${where}: ${JSON.stringify(answer.error)}`).toBeUndefined();
        expect(spec.checkResult(method, answer.result), `${where}: the result breaks the schema`).toBeUndefined();
        // the same request with positional params is read the same way (reads only: a write is sent once)
        if (starknetSpecMethods[method].api !== 'write') {
          const again = await send(`starknet_${method}`, positional(method, sample.params));
          expect(again.error, `${where} (positional): ${JSON.stringify(again.error)}`).toBeUndefined();
          expect(spec.checkResult(method, again.result), `${where} (positional)`).toBeUndefined();
        }
      }
    });
  }
});
