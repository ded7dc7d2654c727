/** Three concurrent sends from one account: three accepted transactions with distinct nonces, three records. */
import { answer, hex, install, mint, PHRASES, result, rpc, STRK, send, waitAccepted } from './helpers';

type AddTx = { code: string; transaction_hash: string };

describe('concurrent sends', () => {
  it('three concurrent sends get distinct nonces, are all accepted and all stored', async () => {
    const snap = await install(PHRASES.concurrency);
    const { address } = await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 0 }));
    await mint(address, 10n ** 19n);
    const deploying = send(snap, 'stk_createAccount', { addressIndex: 0, deploy: true });
    await answer(deploying, true);
    await waitAccepted((await result<AddTx>(deploying)).transaction_hash);

    const recipient = '0x1234567';
    const pendings = [1, 2, 3].map((amount) =>
      send(snap, 'stk_sendTransaction', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: `${recipient},${amount},0`,
        senderAddress: address,
      }),
    );
    // The snap shows one dialog at a time; approve them as they come.
    for (let i = 0; i < 3; i++) await answer(pendings[0]!, true);
    const sent = await Promise.all(pendings.map((p) => result<AddTx>(p)));
    const hashes = sent.map((s) => hex(s.transaction_hash));
    expect(new Set(hashes).size).toBe(3);

    const nonces: bigint[] = [];
    for (const h of hashes) {
      const status = await waitAccepted(h);
      expect(status.execution_status).toBe('SUCCEEDED');
      nonces.push(
        BigInt((await rpc<{ nonce: string }>('starknet_getTransactionByHash', { transaction_hash: h })).nonce),
      );
    }
    expect([...nonces].sort()).toEqual([1n, 2n, 3n]);
    expect(BigInt(await rpc<string>('starknet_getNonce', { block_id: 'latest', contract_address: address }))).toBe(4n);

    const stored = await result<{ txnHash: string; txnType: string; nonce: string }[]>(
      send(snap, 'stk_getTransactions', { senderAddress: address, onlyFromState: true }),
    );
    expect(stored.map((t) => hex(t.txnHash)).sort()).toEqual([...hashes].sort());
    expect(stored.map((t) => BigInt(t.nonce)).sort()).toEqual([1n, 2n, 3n]);
  });
});
