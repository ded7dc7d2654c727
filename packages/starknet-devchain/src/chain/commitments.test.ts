import { describe, expect, it } from 'vitest';
import { shortString } from '../felt.js';
import { poseidon, snKeccak } from '../crypto/hashes.js';
import { num } from 'starknet';
import { startDevchain } from '../startDevchain.js';
import { rpcResult } from '../testing/rpc.js';
import { invokeV3, transferCalldata } from '../testing/signedTx.js';
import {
  blockHash,
  concatCounts,
  eventLeaf,
  messagesHash,
  patriciaRoot,
  receiptLeaf,
  stateDiffHash,
  stateDiffLength,
  transactionLeaf,
} from './commitments.js';
import { emptyDiff } from './state.js';

// Regression vectors published with the Starknet sequencer's block-hash code.
describe('block commitments match the protocol vectors', () => {
  it('concatenated counts', () => {
    expect(concatCounts(4, 3, 2, true)).toBe(0x0000000000000004000000000000000300000000000000028000000000000000n);
  });

  it('transaction leaf and commitment', () => {
    const leaf = transactionLeaf(1n, [2n, 3n]);
    expect(leaf).toBe(0x2f0d8840bcf3bc629598d8a6cc80cb7c0d9e52d93dab244bbf9cd0dca0ad082n);
    expect(patriciaRoot([leaf, leaf])).toBe(0x0282b635972328bd1cfa86496fe920d20bd9440cd78ee8dc90ae2b383d664dcfn);
  });

  it('event leaf and commitment', () => {
    const ev = (seed: bigint) => ({
      from: seed + 8n,
      txHash: 0x1234n,
      keys: [seed, seed + 1n],
      data: [seed + 2n, seed + 3n, seed + 4n],
    });
    expect(eventLeaf(ev(2n))).toBe(0x367807f532742a4dcbe2d8a47b974b22dd7496faa75edc64a3a5fdb6709057n);
    expect(patriciaRoot([ev(0n), ev(1n), ev(2n)].map(eventLeaf))).toBe(
      0x069bb140ddbbeb01d81c7201ecfb933031306e45dab9c77ff9f9ba3cd4c2b9c3n,
    );
  });

  it('messages, revert reason, receipt leaf and commitment', () => {
    const msg = (seed: bigint) => ({ from: seed, to: seed + 1n, payload: [seed + 2n, seed + 3n] });
    expect(messagesHash([msg(0n), msg(1n)])).toBe(0x00c89474a9007dc060aed76caf8b30b927cfea1ebce2d134b943b8d7121004e4n);
    expect(snKeccak('ABC')).toBe(0x01629b9dda060bb30c7908346f6af189c16773fa148d3366701fbaa35d54f3c8n);
    const leaf = receiptLeaf({
      txHash: 1234n,
      actualFee: 99804n,
      messages: [msg(34n), msg(56n)],
      revertReason: 'aborted',
      l1Gas: 16580n,
      l1DataGas: 32n,
    });
    expect(leaf).toBe(0x6276abf21e7c68b2eecfdc8a845b11b44401901f5f040efe10c60d625049646n);
    expect(patriciaRoot([leaf])).toBe(0x31963cb891ebb825e83514deb748c89b6967b5368cbc48a9b56193a1464ca87n);
  });

  it('state diff hash', () => {
    // The vector's diff also has one deprecated declared class (16), which this chain never produces:
    // check the layout against the vector, then stateDiffHash against the same layout without it.
    const layout = (deprecated: bigint[]) =>
      poseidon([
        shortString('STARKNET_STATE_DIFF0'),
        3n,
        0n,
        1n,
        2n,
        3n,
        19n,
        20n,
        2n,
        12n,
        13n,
        14n,
        15n,
        BigInt(deprecated.length),
        ...deprecated,
        1n,
        0n,
        2n,
        4n,
        2n,
        5n,
        6n,
        7n,
        8n,
        9n,
        1n,
        10n,
        11n,
        1n,
        17n,
        18n,
      ]);
    expect(layout([16n])).toBe(0x0281f5966e49ad7dad9323826d53d1d27c0c4e6ebe5525e2e2fbca549bfa0a67n);
    const cls = {
      sierra_program: [],
      contract_class_version: '0.1.0',
      entry_points_by_type: { CONSTRUCTOR: [], EXTERNAL: [], L1_HANDLER: [] },
      abi: '',
    };
    const d = emptyDiff();
    d.nonces.set(17n, 18n);
    d.replaced.set(19n, 20n);
    d.storage.set(9n, new Map([[10n, 11n]]));
    d.storage.set(
      4n,
      new Map([
        [7n, 8n],
        [5n, 6n],
      ]),
    );
    d.storage.set(21n, new Map());
    d.declared.set(14n, { sierra: cls, compiledClassHash: 15n });
    d.declared.set(12n, { sierra: cls, compiledClassHash: 13n });
    d.deployed.set(2n, 3n);
    d.deployed.set(0n, 1n);
    expect(stateDiffHash(d)).toBe(layout([]));
    expect(stateDiffLength(d)).toBe(9);
  });

  it('a 0.13.2 block hash built from these commitments equals the published vector', () => {
    const msg = (seed: bigint) => ({ from: seed, to: seed + 1n, payload: [seed + 2n, seed + 3n] });
    const txc = patriciaRoot([transactionLeaf(1n, [2n, 3n])]);
    const rc = patriciaRoot([
      receiptLeaf({
        txHash: 1n,
        actualFee: 99804n,
        messages: [msg(34n), msg(56n)],
        revertReason: 'aborted',
        l1Gas: 16580n,
        l1DataGas: 32n,
      }),
    ]);
    const sd = 0x0281f5966e49ad7dad9323826d53d1d27c0c4e6ebe5525e2e2fbca549bfa0a67n;
    // 0.13.2 layout: "STARKNET_BLOCK_HASH0" and the four L1 prices inline (0.13.4+ hashes six prices instead).
    const h = poseidon([
      shortString('STARKNET_BLOCK_HASH0'),
      1n,
      2n,
      3n,
      4n,
      concatCounts(1, 0, 10, true),
      sd,
      txc,
      0n,
      rc,
      7n,
      6n,
      9n,
      10n,
      shortString('0.13.2'),
      0n,
      11n,
    ]);
    expect(h).toBe(0xe248d6ce583f8fa48d1d401d4beb9ceced3733e38d8eacb0d8d3669a7d901cn);
  });
});

describe('the chain publishes headers whose hash and commitments recompute', () => {
  it('recomputes block hashes and commitments from RPC data', async () => {
    const dc = await startDevchain({ port: 0, accounts: 2 });
    try {
      const [a, b] = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
      const t = invokeV3(
        a.address,
        transferCalldata('0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d', b.address, 10n ** 30n),
        0n,
        a.private_key,
      );
      await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t.tx });
      const t2 = invokeV3(
        a.address,
        transferCalldata('0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d', b.address, 5n),
        1n,
        a.private_key,
      );
      await rpcResult(dc.rpcUrl, 'starknet_addInvokeTransaction', { invoke_transaction: t2.tx });
      for (const n of [0, 1, 2]) {
        const blk = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithReceipts', { block_id: { block_number: n } });
        const txs = blk.transactions as { transaction: any; receipt: any }[];
        const txc = patriciaRoot(
          txs.map((x) => transactionLeaf(BigInt(x.receipt.transaction_hash), x.transaction.signature.map(BigInt))),
        );
        const events = txs.flatMap((x) =>
          x.receipt.events.map((e: any) =>
            eventLeaf({
              from: BigInt(e.from_address),
              txHash: BigInt(x.receipt.transaction_hash),
              keys: e.keys.map(BigInt),
              data: e.data.map(BigInt),
            }),
          ),
        );
        const rc = patriciaRoot(
          txs.map((x) =>
            receiptLeaf({
              txHash: BigInt(x.receipt.transaction_hash),
              actualFee: BigInt(x.receipt.actual_fee.amount),
              messages: [],
              revertReason: x.receipt.revert_reason,
              l1Gas: BigInt(x.receipt.execution_resources.l1_gas),
              l1DataGas: BigInt(x.receipt.execution_resources.l1_data_gas),
            }),
          ),
        );
        expect(BigInt(blk.transaction_commitment)).toBe(txc);
        expect(BigInt(blk.event_commitment)).toBe(patriciaRoot(events));
        expect(BigInt(blk.receipt_commitment)).toBe(rc);
        const p = (x: { price_in_wei: string; price_in_fri: string }) =>
          [BigInt(x.price_in_wei), BigInt(x.price_in_fri)] as const;
        const [l1Wei, l1Fri] = p(blk.l1_gas_price);
        const [l1DataWei, l1DataFri] = p(blk.l1_data_gas_price);
        const [l2Wei, l2Fri] = p(blk.l2_gas_price);
        const recomputed = blockHash({
          number: blk.block_number,
          stateRoot: BigInt(blk.new_root),
          sequencer: BigInt(blk.sequencer_address),
          timestamp: blk.timestamp,
          concatCounts: concatCounts(
            blk.transaction_count,
            blk.event_count,
            blk.state_diff_length,
            blk.l1_da_mode === 'BLOB',
          ),
          stateDiffCommitment: BigInt(blk.state_diff_commitment),
          transactionCommitment: txc,
          eventCommitment: patriciaRoot(events),
          receiptCommitment: rc,
          prices: { l1Wei, l1Fri, l1DataWei, l1DataFri, l2Wei, l2Fri },
          starknetVersion: blk.starknet_version,
          parentHash: BigInt(blk.parent_hash),
        });
        expect(num.toHex(recomputed)).toBe(blk.block_hash);
      }
    } finally {
      await dc.close();
    }
  });
});
