// The computing syscalls (keccak, sha256, secp256k1/r1) and meta_tx_v0 of user contracts on the dev chain, through
// JSON-RPC with starknet.js: a contract compiled by wasm-cairo (packages/sierra-vm/test-contracts) declared, deployed
// and called, its results compared with @noble/hashes, @noble/curves and node:crypto.
import { createHash } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { parseSierraText } from '@nodegate/sierra-vm';
import {
  Account,
  type CairoResult,
  CallData,
  Contract,
  config,
  hash,
  num,
  RpcProvider,
  shortString,
  stark,
} from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../startDevchain.js';
import { readCairoTestData } from '../testing/readCairoTestData.js';
import { readTestContract } from '../testing/readTestContract.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';
import { sierraContractClass } from '../testing/sierraContractClass.js';
import { bounds3 } from '../testing/signedTx.js';

config.set('logLevel', 'ERROR');

const sel = (name: string) => hash.getSelectorFromName(name);
const BOUNDS = { resourceBounds: bounds3(5n * 10n ** 8n) };

let dc: RunningDevchain;
let provider: RpcProvider;
let alice: Account;

const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 50 });
const receipt = (h: string) => rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: h });

/** Declares a class (any compiled class hash: the dev chain keeps it) and deploys it through the UDC. */
async function declareAndDeploy(contract: object): Promise<{ classHash: string; address: string }> {
  const d = await alice.declare({ contract: contract as never, compiledClassHash: '0x1' });
  expect((await wait(d.transaction_hash)).isSuccess()).toBe(true);
  const r = await alice.deploy({ classHash: d.class_hash, constructorCalldata: [], salt: stark.randomAddress() });
  expect((await wait(r.transaction_hash)).isSuccess()).toBe(true);
  return { classHash: d.class_hash, address: r.contract_address[0]! };
}

beforeAll(async () => {
  dc = await startDevchain({ port: 0, accounts: 1, seed: 31 });
  provider = new RpcProvider({ nodeUrl: dc.rpcUrl });
  const [a] = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  alice = new Account({ provider, address: a.address, signer: a.private_key });
});

afterAll(async () => {
  await dc.close();
});

const le = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
const be = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
const bytesOf = (x: bigint): Uint8Array => Buffer.from(x.toString(16).padStart(64, '0'), 'hex');

describe('a contract using keccak, sha256 and secp256k1/r1 (compiled by wasm-cairo)', () => {
  const cls = readTestContract('crypto_syscalls');
  let crypto: Contract;
  let address: string;

  beforeAll(async () => {
    ({ address } = await declareAndDeploy(cls));
    crypto = new Contract({ abi: cls.abi, address, providerOrAccount: provider });
  });

  it('hashes with keccak and sha256 as @noble/hashes and node:crypto', async () => {
    const text = 'nodegate runs Cairo: keccak and sha256 through syscalls, '.repeat(4);
    expect(await crypto.keccak_bytes(text)).toBe(le(keccak_256(Buffer.from(text))));
    const words = [1n, (1n << 255n) + 7n, 0xabcdefn];
    const wordBytes = Buffer.concat(words.map((w) => Buffer.from(bytesOf(w)).reverse()));
    expect(await crypto.keccak_words(words)).toBe(le(keccak_256(wordBytes)));
    const digest = (await crypto.sha256_bytes(text)) as bigint[];
    expect(digest.map((w) => w.toString(16).padStart(8, '0')).join('')).toBe(
      createHash('sha256').update(text).digest('hex'),
    );
    const raw = (await crypto.keccak_raw([1n, 2n])) as CairoResult<bigint, bigint[]>;
    expect(raw.isErr() && raw.unwrap()).toEqual([BigInt(shortString.encodeShortString('Invalid input length'))]);
  });

  it.each([
    ['secp256k1', true, secp256k1],
    ['secp256r1', false, p256],
  ] as const)('%s: verifies and recovers signatures of @noble/curves, points from x', async (_name, k1, noble) => {
    const sk = bytesOf(0x0badc0ffee0ddf00d0123456789abcdef0123456789abcdef0123456789abcn);
    const pub = noble.Point.fromBytes(noble.getPublicKey(sk, false)).toAffine();
    const msg = bytesOf(0x5eedn * 0x1234567n);
    const sig = noble.Signature.fromBytes(noble.sign(msg, sk, { prehash: false, format: 'recovered' }), 'recovered');
    const h = be(msg);
    expect(await crypto.verify(k1, h, sig.r, sig.s, pub.x, pub.y)).toBe(true);
    expect(await crypto.verify(k1, h ^ 1n, sig.r, sig.s, pub.x, pub.y)).toBe(false);
    const recovered = await crypto.recover(k1, h, sig.r, sig.s, (sig.recovery! & 1) === 1);
    expect(recovered.unwrap()).toEqual({ 0: pub.x, 1: pub.y });
    const q = noble.Point.BASE.multiply(99n).toAffine();
    expect((await crypto.point_from_x(k1, q.x, (q.y & 1n) === 1n)).unwrap()).toEqual({ 0: q.x, 1: q.y });
    // A coordinate not below the field prime: the syscall fails with 'Invalid argument' (error 40 for a call).
    const tooBig = await rawRpc(dc.rpcUrl, 'starknet_call', {
      request: {
        contract_address: address,
        entry_point_selector: sel('new_point'),
        calldata: CallData.toHex(CallData.compile([k1 ? 1 : 0, ...uint(noble.Point.Fp.ORDER), ...uint(pub.y)])),
      },
      block_id: 'latest',
    });
    expect(tooBig.error?.code).toBe(40);
    expect(JSON.stringify(tooBig.error?.data)).toMatch(/Invalid argument/);
  });

  it('verify_eth_signature runs in a transaction; a wrong address reverts it', async () => {
    const sk = bytesOf(0x4242424242424242424242424242424242424242424242424242424242424242n);
    const address20 = be(keccak_256(secp256k1.getPublicKey(sk, false).slice(1)).slice(12));
    const msg = bytesOf(0xfeedn);
    const sig = secp256k1.Signature.fromBytes(
      secp256k1.sign(msg, sk, { prehash: false, format: 'recovered' }),
      'recovered',
    );
    const calldata = (a: bigint) =>
      CallData.compile([...uint(be(msg)), ...uint(sig.r), ...uint(sig.s), sig.recovery === 1 ? 1 : 0, num.toHex(a)]);
    const ok = await alice.execute(
      { contractAddress: address, entrypoint: 'verify_eth', calldata: calldata(address20) },
      BOUNDS,
    );
    expect((await wait(ok.transaction_hash)).isSuccess()).toBe(true);
    const bad = await alice.execute(
      { contractAddress: address, entrypoint: 'verify_eth', calldata: calldata(address20 + 1n) },
      BOUNDS,
    );
    expect((await wait(bad.transaction_hash)).isReverted()).toBe(true);
    expect((await receipt(bad.transaction_hash)).revert_reason).toMatch(/Invalid signature/);
  });
});

const uint = (x: bigint): string[] => [num.toHex(x & ((1n << 128n) - 1n)), num.toHex(x >> 128n)];

/**
 * A hand-written class (the Cairo 2.8 corelib of wasm-cairo has no meta_tx_v0_syscall): `relay(target, selector,
 * ...calldata)` calls `meta_tx_v0_syscall(target, selector, calldata, signature [0xaa, 0xbb])` and returns its result.
 */
function relayClass() {
  const span = 'core::array::Span::<core::felt252>';
  const result = `core::panics::PanicResult::<(${span},)>`;
  const t = (name: string, generic = name) =>
    `type ${name} = ${generic} [storable: true, drop: true, dup: true, zero_sized: false];`;
  const lib = (name: string) => `libfunc ${name} = ${name};`;
  const panicking = (rc: string, gas: string, sys: string, at: number, v: number) => [
    `array_new<felt252>() -> ([${v}]); // ${at}`,
    `struct_construct<core::panics::Panic>() -> ([${v + 1}]); // ${at + 1}`,
    `struct_construct<Tuple<core::panics::Panic, Array<felt252>>>([${v + 1}], [${v}]) -> ([${v + 2}]); // ${at + 2}`,
    `enum_init<${result}, 1>([${v + 2}]) -> ([${v + 3}]); // ${at + 3}`,
    `return([${rc}], [${gas}], [${sys}], [${v + 3}]); // ${at + 4}`,
  ];
  const { program } = parseSierraText(`
${t('RangeCheck')}
${t('felt252')}
${t('GasBuiltin')}
${t('System')}
${t('ContractAddress')}
${t('Array<felt252>')}
${t('Snapshot<Array<felt252>>')}
${t(span, `Struct<ut@${span}, Snapshot<Array<felt252>>>`)}
${t(`Tuple<${span}>`, `Struct<ut@Tuple, ${span}>`)}
${t('core::panics::Panic', 'Struct<ut@core::panics::Panic>')}
${t('Tuple<core::panics::Panic, Array<felt252>>', 'Struct<ut@Tuple, core::panics::Panic, Array<felt252>>')}
${t(result, `Enum<ut@${result}, Tuple<${span}>, Tuple<core::panics::Panic, Array<felt252>>>`)}

${lib('meta_tx_v0_syscall')}
${lib('contract_address_try_from_felt252')}
${lib(`struct_deconstruct<${span}>`)}
${lib(`struct_construct<${span}>`)}
${lib('array_snapshot_pop_front<felt252>')}
${lib('unbox<felt252>')}
${lib('array_new<felt252>')}
${lib('array_append<felt252>')}
${lib('snapshot_take<Array<felt252>>')}
${lib('felt252_const<170>')}
${lib('felt252_const<187>')}
${lib(`struct_construct<Tuple<${span}>>`)}
${lib(`enum_init<${result}, 0>`)}
${lib(`enum_init<${result}, 1>`)}
${lib('struct_construct<core::panics::Panic>')}
${lib('struct_construct<Tuple<core::panics::Panic, Array<felt252>>>')}

struct_deconstruct<${span}>([3]) -> ([4]); // 0
array_snapshot_pop_front<felt252>([4]) { fallthrough([5], [6]) 22([7]) }; // 1
unbox<felt252>([6]) -> ([8]); // 2
contract_address_try_from_felt252([0], [8]) { fallthrough([9], [10]) 27([11]) }; // 3
array_snapshot_pop_front<felt252>([5]) { fallthrough([12], [13]) 32([14]) }; // 4
unbox<felt252>([13]) -> ([15]); // 5
struct_construct<${span}>([12]) -> ([16]); // 6
array_new<felt252>() -> ([17]); // 7
felt252_const<170>() -> ([18]); // 8
array_append<felt252>([17], [18]) -> ([19]); // 9
felt252_const<187>() -> ([20]); // 10
array_append<felt252>([19], [20]) -> ([21]); // 11
snapshot_take<Array<felt252>>([21]) -> ([22], [23]); // 12
struct_construct<${span}>([23]) -> ([24]); // 13
meta_tx_v0_syscall([1], [2], [10], [15], [16], [24]) { fallthrough([25], [26], [27]) 18([28], [29], [30]) }; // 14
struct_construct<Tuple<${span}>>([27]) -> ([31]); // 15
enum_init<${result}, 0>([31]) -> ([32]); // 16
return([9], [25], [26], [32]); // 17
struct_construct<core::panics::Panic>() -> ([33]); // 18
struct_construct<Tuple<core::panics::Panic, Array<felt252>>>([33], [30]) -> ([34]); // 19
enum_init<${result}, 1>([34]) -> ([35]); // 20
return([9], [28], [29], [35]); // 21
${panicking('0', '1', '2', 22, 40).join('\n')}
${panicking('11', '1', '2', 27, 50).join('\n')}
${panicking('9', '1', '2', 32, 60).join('\n')}

relay@0([0]: RangeCheck, [1]: GasBuiltin, [2]: System, [3]: ${span}) -> (RangeCheck, GasBuiltin, System, ${result});
`);
  return sierraContractClass(program, { relay: 0 });
}

describe('meta_tx_v0_syscall', () => {
  it("runs __execute__ as a version 0 transaction: caller 0, the given signature, the v0 hash; other entry points 'Invalid argument'", async () => {
    const { address: target } = await declareAndDeploy(readTestContract('tx_info'));
    const { address: relay } = await declareAndDeploy(relayClass());
    const calls = ['0x7', '0x8', '0x9'];
    const { transaction_hash } = await alice.execute(
      { contractAddress: relay, entrypoint: 'relay', calldata: [target, sel('__execute__'), '0x3', ...calls] },
      BOUNDS,
    );
    expect((await wait(transaction_hash)).isSuccess()).toBe(true);
    const trace = await rpcResult(dc.rpcUrl, 'starknet_traceTransaction', { transaction_hash });
    const relayCall = trace.execute_invocation.calls[0];
    const chainId = await provider.getChainId();
    // The version 0 INVOKE hash: Pedersen on elements of ('invoke', 0, address, selector, h(calldata), 0, chain id).
    const v0Hash = hash.computeHashOnElements([
      shortString.encodeShortString('invoke'),
      0,
      target,
      sel('__execute__'),
      hash.computeHashOnElements(['0x3', ...calls]),
      0,
      chainId,
    ]);
    // __execute__ returns an Array<felt252>: its length, then caller, version, account, hash, nonce, max fee, the
    // number of call felts and the signature.
    const expected = ['0x9', '0x0', '0x0', target, v0Hash, '0x0', '0x0', '0x3', '0xaa', '0xbb'].map((x) =>
      num.toHex(x),
    );
    expect(relayCall.result).toEqual(expected);
    expect(relayCall.calls[0]).toMatchObject({
      contract_address: num.toHex(target),
      caller_address: '0x0',
      entry_point_selector: sel('__execute__'),
      result: expected,
    });
    const wrong = await alice.execute(
      { contractAddress: relay, entrypoint: 'relay', calldata: [target, sel('transfer'), '0x0'] },
      BOUNDS,
    );
    expect((await wait(wrong.transaction_hash)).isReverted()).toBe(true);
    expect((await receipt(wrong.transaction_hash)).revert_reason).toMatch(/Invalid argument/);
  });
});

describe('libfuncs_coverage (the Cairo test data) is accepted and runs', () => {
  it('declares (no libfunc the VM lacks) and its entry point runs in a transaction and a call', async () => {
    const cls = readCairoTestData('libfuncs_coverage__libfuncs_coverage');
    const casm = readCairoTestData('libfuncs_coverage__libfuncs_coverage', 'compiled_contract_class');
    const d = await alice.declare({ contract: cls, compiledClassHash: hash.computeCompiledClassHash(casm) });
    expect((await wait(d.transaction_hash)).isSuccess()).toBe(true);
    const r = await alice.deploy({ classHash: d.class_hash, constructorCalldata: [], salt: stark.randomAddress() });
    expect((await wait(r.transaction_hash)).isSuccess()).toBe(true);
    const address = r.contract_address[0]!;
    const run = await alice.execute({ contractAddress: address, entrypoint: 'entry_point', calldata: [] });
    expect((await wait(run.transaction_hash)).isSuccess()).toBe(true);
    expect(await provider.callContract({ contractAddress: address, entrypoint: 'entry_point' })).toEqual([]);
  });
});
