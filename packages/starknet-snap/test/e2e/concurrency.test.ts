/**
 * Concurrent sends from one account: every send method (stk_sendTransaction, stk_executeTxn, stk_declareContract)
 * shares the account's nonce lock, so requests in flight together land with distinct, consecutive nonces, and every
 * one is stored.
 */
import { hash } from 'starknet';
import {
  type AddTx,
  answer,
  deployedAccount,
  dialogText,
  fixture,
  hex,
  install,
  landedNonces,
  nonceOf,
  PHRASES,
  result,
  rpc,
  type Snap,
  STRK,
  send,
  strkBalance,
} from './helpers';

let snap: Snap;
let address = '';

const sorted = (xs: bigint[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

beforeAll(async () => {
  snap = await install(PHRASES.concurrency);
  address = await deployedAccount(snap, 10n ** 20n);
});

describe('concurrent sends', () => {
  it('three concurrent sends get distinct nonces, are all accepted and all stored', async () => {
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

    const nonces = await landedNonces(hashes);
    expect([...nonces].sort()).toEqual([1n, 2n, 3n]);
    expect(await nonceOf(address)).toBe(4n);

    const stored = await result<{ txnHash: string; txnType: string; nonce: string }[]>(
      send(snap, 'stk_getTransactions', { senderAddress: address, onlyFromState: true }),
    );
    expect(stored.map((t) => hex(t.txnHash)).sort()).toEqual([...hashes].sort());
    expect(stored.map((t) => BigInt(t.nonce)).sort()).toEqual([1n, 2n, 3n]);
  });

  it('a declare, stk_executeTxn multicalls and stk_sendTransaction in flight together land with consecutive nonces', async () => {
    const before = await nonceOf(address);
    const contract = fixture('new_syntax_test_contract__counter_contract.contract_class.json');
    const casm = fixture('new_syntax_test_contract__counter_contract.compiled_contract_class.json');
    const classHash = hex(hash.computeContractClassHash(contract));
    const recipient = '0x7654321';
    const pendings = [
      send(snap, 'stk_executeTxn', {
        senderAddress: address,
        calls: [{ contractAddress: STRK, entrypoint: 'transfer', calldata: [recipient, '10', '0'] }],
      }),
      send(snap, 'stk_sendTransaction', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: `${recipient},20,0`,
        senderAddress: address,
      }),
      send(snap, 'stk_declareContract', {
        senderAddress: address,
        contract,
        compiledClassHash: hash.computeCompiledClassHash(casm),
      }),
      send(snap, 'stk_executeTxn', {
        senderAddress: address,
        calls: [
          { contractAddress: STRK, entrypoint: 'transfer', calldata: [recipient, '30', '0'] },
          { contractAddress: STRK, entrypoint: 'approve', calldata: [recipient, '40', '0'] },
        ],
      }),
      send(snap, 'stk_sendTransaction', {
        contractAddress: STRK,
        contractFuncName: 'transfer',
        contractCallData: `${recipient},50,0`,
        senderAddress: address,
      }),
    ];
    // One dialog at a time, in whatever order the requests reach theirs; approve each and note what it was.
    const titles: string[] = [];
    for (let i = 0; i < pendings.length; i++) titles.push(dialogText(await answer(pendings[0]!, true)).split('\n')[0]!);
    expect(titles.sort()).toEqual(
      [
        'Declare contract class',
        'Send 2 calls in one transaction',
        'Send transaction',
        'Send transaction',
        'Send transaction',
      ].sort(),
    );
    const [exec1, send1, declared, exec2, send2] = await Promise.all(
      pendings.map((p) => result<AddTx & { class_hash?: string }>(p)),
    );
    expect(hex(declared!.class_hash!)).toBe(classHash);
    const hashes = [exec1!, send1!, declared!, exec2!, send2!].map((t) => hex(t.transaction_hash));
    expect(new Set(hashes).size).toBe(5);

    const nonces = await landedNonces(hashes);
    expect(sorted(nonces)).toEqual([0n, 1n, 2n, 3n, 4n].map((k) => before + k));
    expect(await nonceOf(address)).toBe(before + 5n);
    // every transfer landed once (10 + 20 + 30 + 50), the approve too, the class is declared
    expect(await strkBalance(recipient)).toBe(110n);
    expect(await rpc('starknet_getClass', { block_id: 'latest', class_hash: classHash })).toMatchObject({
      sierra_program: contract.sierra_program,
    });

    // every one is stored with the nonce it was sent with (the declare as a DECLARE)
    const stored = await result<{ txnHash: string; txnType: string; nonce: string }[]>(
      send(snap, 'stk_getTransactions', { senderAddress: address, onlyFromState: true, pageSize: 50 }),
    );
    const byHash = new Map(stored.map((t) => [hex(t.txnHash), t]));
    for (const [i, h] of hashes.entries()) {
      expect(byHash.get(h)).toBeDefined();
      expect(BigInt(byHash.get(h)!.nonce)).toBe(nonces[i]);
    }
    expect(byHash.get(hashes[2]!)!.txnType).toBe('DECLARE');
  });
});
