import { decodeSierraProgram, encodeSierraProgram, parseSierraText, unsupportedLibfuncs } from '@nodegate/sierra-vm';
import { Account, CallData, Contract, config, hash, num, RpcProvider, stark, uint256 } from 'starknet';
import { createSpecValidator } from '@nodegate/starknet-spec/conformance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDevchain, startDevchain } from '../startDevchain.js';
import { readCairoTestData } from '../testing/readCairoTestData.js';
import { rawRpc, rpcResult } from '../testing/rpc.js';
import { sierraContractClass } from '../testing/sierraContractClass.js';
import { bounds3 } from '../testing/signedTx.js';

config.set('logLevel', 'ERROR');

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const sel = (name: string) => hash.getSelectorFromName(name);
const spec = createSpecValidator(process.env.STARKNET_SPECS ?? '/work/shared/fixtures/starknet-specs-0.10.2/api');
const hex = (x: string | bigint) => num.toHex(BigInt(x));
/** Explicit bounds, so that starknet.js does not estimate first (estimates of failing transactions fail). */
const BOUNDS = { resourceBounds: bounds3(2n * 10n ** 7n) };

let dc: RunningDevchain;
let provider: RpcProvider;
let alice: Account;
let bob: Account;

const wait = (h: string) => provider.waitForTransaction(h, { retryInterval: 50 });
const receipt = (h: string) => rpcResult(dc.rpcUrl, 'starknet_getTransactionReceipt', { transaction_hash: h });

const declared = new Map<string, string>();

/** Declares a fixture class (once) with its CASM's compiled class hash; its class hash. */
async function declare(name: string): Promise<string> {
  const known = declared.get(name);
  if (known) return known;
  const contract = readCairoTestData(name);
  const compiledClassHash = hash.computeCompiledClassHash(readCairoTestData(name, 'compiled_contract_class'));
  const r = await alice.declare({ contract, compiledClassHash });
  expect((await wait(r.transaction_hash)).isSuccess()).toBe(true);
  expect(BigInt(r.class_hash)).toBe(BigInt(hash.computeContractClassHash(contract)));
  declared.set(name, r.class_hash);
  return r.class_hash;
}

/** Deploys through the UDC (constructor on the VM); the new address. */
async function deploy(classHash: string, constructorCalldata: (string | bigint | number)[]): Promise<string> {
  const r = await alice.deploy({
    classHash,
    constructorCalldata: CallData.toHex(constructorCalldata),
    salt: stark.randomAddress(),
  });
  const rec = await wait(r.transaction_hash);
  expect(rec.isSuccess()).toBe(true);
  const address = r.contract_address[0]!;
  expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(classHash));
  return address;
}

beforeAll(async () => {
  dc = await startDevchain({ port: 0, accounts: 2, seed: 21 });
  provider = new RpcProvider({ nodeUrl: dc.rpcUrl });
  const accounts = await rpcResult(dc.rpcUrl, 'devnet_getPredeployedAccounts');
  alice = new Account({ provider, address: accounts[0].address, signer: accounts[0].private_key });
  bob = new Account({ provider, address: accounts[1].address, signer: accounts[1].private_key });
});

afterAll(async () => {
  await dc.close();
});

describe('user-declared Sierra classes run on the Sierra VM', () => {
  let erc20: string;
  let token: string;

  it('declares the ERC20 fixture, deploys it through the UDC, transfers, and serves calls and events', async () => {
    erc20 = await declare('erc20__erc_20');
    token = await deploy(erc20, [
      '0x4e6f6465676174652054657374', // 'Nodegate Test'
      '0x4e4754', // 'NGT'
      18,
      1000,
      0,
      alice.address,
    ]);
    const abi = readCairoTestData('erc20__erc_20').abi;
    const c = new Contract({ abi, address: token, providerOrAccount: provider });
    expect(await c.balance_of(alice.address)).toBe(1000n);
    expect(await c.get_symbol()).toBe(0x4e4754n);
    expect(await c.get_decimals()).toBe(18n);

    const { transaction_hash } = await alice.execute({
      contractAddress: token,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: bob.address, amount: uint256.bnToUint256(300n) }),
    });
    expect((await wait(transaction_hash)).isSuccess()).toBe(true);
    const r = await receipt(transaction_hash);
    expect(r.events[0]).toEqual({
      from_address: hex(token),
      keys: [sel('Transfer')],
      data: [hex(alice.address), hex(bob.address), '0x12c', '0x0'],
    });
    expect(await c.balance_of(alice.address)).toBe(700n);
    expect(await c.balance_of(bob.address)).toBe(300n);
    const raw = await provider.callContract({
      contractAddress: token,
      entrypoint: 'balance_of',
      calldata: [bob.address],
    });
    expect(raw.map((x) => BigInt(x))).toEqual([300n, 0n]);

    const events = await provider.getEvents({
      address: token,
      keys: [[sel('Transfer')]],
      from_block: { block_number: 0 },
      to_block: 'latest',
      chunk_size: 100,
    });
    expect(events.events.map((e) => e.data.map((d) => BigInt(d)))).toEqual([
      [0n, BigInt(alice.address), 1000n, 0n],
      [BigInt(alice.address), BigInt(bob.address), 300n, 0n],
    ]);
  });

  it('reverts an overdraft with the decoded panic reason; call and estimate report the contract error', async () => {
    const overdraft = {
      contractAddress: token,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient: bob.address, amount: uint256.bnToUint256(5000n) }),
    };
    const { transaction_hash } = await alice.execute(overdraft, BOUNDS);
    expect((await wait(transaction_hash)).isReverted()).toBe(true);
    const r = await receipt(transaction_hash);
    expect(r.revert_reason).toMatch(/u256_sub Overflow/);
    expect(r.events.map((e: { from_address: string }) => e.from_address)).toEqual([STRK]); // the fee only
    await expect(alice.estimateInvokeFee(overdraft)).rejects.toThrow(/41: .*u256_sub Overflow/s);
    // A call has caller 0: the ERC20 refuses a transfer from the zero address.
    const call = await rawRpc(dc.rpcUrl, 'starknet_call', {
      request: {
        contract_address: token,
        entry_point_selector: sel('transfer'),
        calldata: [bob.address, '0x1', '0x0'],
      },
      block_id: 'latest',
    });
    expect(call.error?.code).toBe(40);
    expect(JSON.stringify(call.error?.data)).toMatch(/ERC20: transfer from 0/);
    const missing = await rawRpc(dc.rpcUrl, 'starknet_call', {
      request: { contract_address: token, entry_point_selector: sel('no_such_entry_point'), calldata: [] },
      block_id: 'latest',
    });
    expect(missing.error?.code).toBe(21);
  });

  it('a user contract calls a native one: the counter asks STRK, which has no such entry point', async () => {
    const counter = await declare('new_syntax_test_contract__counter_contract');
    const address = await deploy(counter, [10, STRK]);
    const { transaction_hash } = await alice.execute({
      contractAddress: address,
      entrypoint: 'increase_counter',
      calldata: [5],
    });
    expect((await wait(transaction_hash)).isSuccess()).toBe(true);
    const r = await receipt(transaction_hash);
    expect(r.events[0]).toEqual({ from_address: hex(address), keys: [sel('CounterIncreased')], data: ['0x5'] });
    expect(await provider.callContract({ contractAddress: address, entrypoint: 'get_counter' })).toEqual(['0xf']);
    // decrease_counter calls decrease_allowed() on the other contract (here the native STRK token).
    const dec = await alice.execute(
      { contractAddress: address, entrypoint: 'decrease_counter', calldata: [1] },
      BOUNDS,
    );
    expect((await wait(dec.transaction_hash)).isReverted()).toBe(true);
    expect((await receipt(dec.transaction_hash)).revert_reason).toMatch(/ENTRYPOINT_NOT_FOUND.*ENTRYPOINT_FAILED/s);
    expect(await provider.callContract({ contractAddress: address, entrypoint: 'get_counter' })).toEqual(['0xf']);
  });

  it('an L1 handler of a declared class runs for estimateMessageFee; EXTERNAL and L1_HANDLER tables are apart', async () => {
    const testClass = await declare('test_contract__test_contract');
    const address = await deploy(testClass, [5]);
    const message = (selector: string) => ({
      message: {
        from_address: '0x8453fc6cd1bcfe8d4dfc069c400b433054d47bdc',
        to_address: address,
        entry_point_selector: selector,
        payload: ['0x2a'],
      },
      block_id: 'latest',
    });
    const ok = await rpcResult(dc.rpcUrl, 'starknet_estimateMessageFee', message(sel('l1_handle')));
    expect(ok.unit).toBe('WEI');
    expect(BigInt(ok.overall_fee)).toBeGreaterThan(0n);
    // `test` is an EXTERNAL entry point, not an L1 handler.
    const wrong = await rawRpc(dc.rpcUrl, 'starknet_estimateMessageFee', message(sel('test')));
    expect(wrong.error?.code).toBe(40);
    // And l1_handle cannot be called as an EXTERNAL entry point.
    const asCall = await rawRpc(dc.rpcUrl, 'starknet_call', {
      request: { contract_address: address, entry_point_selector: sel('l1_handle'), calldata: ['0x1', '0x2'] },
      block_id: 'latest',
    });
    expect(asCall.error?.code).toBe(21);
  });

  it('library calls run the implementation class in the proxy contract (proxy → upgradable counter)', async () => {
    const counter = await declare('upgradable_counter__counter_contract');
    const proxyClass = await declare('proxy__proxy');
    const proxy = await deploy(proxyClass, [counter]);
    for (const amount of [4, 6]) {
      const { transaction_hash } = await alice.execute({
        contractAddress: proxy,
        entrypoint: 'increase_counter',
        calldata: [amount],
      });
      expect((await wait(transaction_hash)).isSuccess()).toBe(true);
      const r = await receipt(transaction_hash);
      expect(r.events[0]).toEqual({
        from_address: hex(proxy),
        keys: [sel('CounterIncreased')],
        data: [hex(BigInt(amount))],
      });
    }
    expect(await provider.callContract({ contractAddress: proxy, entrypoint: 'get_counter' })).toEqual(['0xa']);

    // The trace shows the nested calls: account → proxy (CALL) → counter class (LIBRARY_CALL, in the proxy).
    const last = await alice.execute({ contractAddress: proxy, entrypoint: 'increase_counter', calldata: [1] });
    await wait(last.transaction_hash);
    const trace = await rpcResult(dc.rpcUrl, 'starknet_traceTransaction', { transaction_hash: last.transaction_hash });
    expect(spec.checkResult('traceTransaction', trace)).toBeUndefined();
    expect(spec.checkResult('traceTransaction', { type: 'INVOKE' })).toBeDefined(); // the check can fail
    const proxyCall = trace.execute_invocation.calls[0];
    expect(proxyCall).toMatchObject({
      contract_address: hex(proxy),
      class_hash: hex(proxyClass),
      caller_address: hex(alice.address),
      call_type: 'CALL',
      entry_point_selector: sel('increase_counter'),
      calldata: ['0x1'],
      events: [],
      is_reverted: false,
    });
    expect(proxyCall.calls).toHaveLength(1);
    expect(proxyCall.calls[0]).toMatchObject({
      contract_address: hex(proxy),
      class_hash: hex(counter),
      call_type: 'LIBRARY_CALL',
      entry_point_selector: sel('increase_counter'),
      events: [{ order: 0, keys: [sel('CounterIncreased')], data: ['0x1'] }],
      result: [],
      is_reverted: false,
    });
    expect(await provider.callContract({ contractAddress: proxy, entrypoint: 'get_counter' })).toEqual(['0xb']);
    const under = await alice.execute(
      { contractAddress: proxy, entrypoint: 'decrease_counter', calldata: [12] },
      BOUNDS,
    );
    expect((await wait(under.transaction_hash)).isReverted()).toBe(true);
    expect((await receipt(under.transaction_hash)).revert_reason).toMatch(/u128_sub Overflow/);
  });

  it('replace_class: the owner upgrades a contract to another declared class, others are refused', async () => {
    const multi = await declare('multi_component__contract_with_4_components');
    const counter = await declare('upgradable_counter__counter_contract');
    const address = await deploy(multi, ['0x41', '0x42', 18, 50, 0, alice.address, alice.address]);
    const upgrade = { contractAddress: address, entrypoint: 'upgrade', calldata: [counter] };
    const denied = await bob.execute(upgrade, BOUNDS);
    expect((await wait(denied.transaction_hash)).isReverted()).toBe(true);
    expect((await receipt(denied.transaction_hash)).revert_reason).toMatch(/Wrong owner\./);
    expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(multi));

    const { transaction_hash } = await alice.execute(upgrade);
    const rec = await wait(transaction_hash);
    expect(rec.isSuccess()).toBe(true);
    expect(BigInt(await provider.getClassHashAt(address))).toBe(BigInt(counter));
    const r = await receipt(transaction_hash);
    expect(r.events[0]).toEqual({
      from_address: hex(address),
      keys: [sel('Upgradable'), sel('ContractUpgraded')],
      // The component keeps the implementation in its storage, which its constructor never set: 0.
      data: ['0x0', hex(counter)],
    });
    const su = await rpcResult(dc.rpcUrl, 'starknet_getStateUpdate', { block_id: { block_number: r.block_number } });
    expect(su.state_diff.replaced_classes).toEqual([{ contract_address: hex(address), class_hash: hex(counter) }]);
    // The contract now runs the counter's code over its storage.
    expect(await provider.callContract({ contractAddress: address, entrypoint: 'get_counter' })).toEqual(['0x0']);
    expect(
      (await provider.callContract({ contractAddress: address, entrypoint: 'get_symbol' }).catch((e) => e)).baseError
        ?.code,
    ).toBe(21);
  });
});

/**
 * A hand-written class for the syscalls no fixture reaches: `send(payload)` sends an L2 → L1 message to 0x1234 and
 * returns the payload; `block_hash()` returns the hash of block 1 (get_block_hash_syscall); `deploy_self(class_hash)`
 * deploys `class_hash` with salt 0x1234 and no constructor calldata (deploy_syscall) and returns the address.
 */
function syscallClass() {
  const span = 'core::array::Span::<core::felt252>';
  const result = `core::panics::PanicResult::<(${span},)>`;
  const t = (name: string, generic = name) =>
    `type ${name} = ${generic} [storable: true, drop: true, dup: true, zero_sized: false];`;
  const { program } = parseSierraText(`
${t('felt252')}
${t('GasBuiltin')}
${t('System')}
${t('u64')}
${t('Const<u64, 1>')}
${t('Array<felt252>')}
${t('Snapshot<Array<felt252>>')}
${t(span, `Struct<ut@${span}, Snapshot<Array<felt252>>>`)}
${t(`Tuple<${span}>`, `Struct<ut@Tuple, ${span}>`)}
${t('core::panics::Panic', 'Struct<ut@core::panics::Panic>')}
${t('Tuple<core::panics::Panic, Array<felt252>>', 'Struct<ut@Tuple, core::panics::Panic, Array<felt252>>')}
${t(result, `Enum<ut@${result}, Tuple<${span}>, Tuple<core::panics::Panic, Array<felt252>>>`)}
${t('Unit', 'Struct<ut@Tuple>')}
${t('core::bool', 'Enum<ut@core::bool, Unit, Unit>')}

libfunc send_message_to_l1_syscall = send_message_to_l1_syscall;
libfunc get_block_hash_syscall = get_block_hash_syscall;
libfunc felt252_const<4660> = felt252_const<4660>;
libfunc const_as_immediate<Const<u64, 1>> = const_as_immediate<Const<u64, 1>>;
libfunc struct_construct<Tuple<${span}>> = struct_construct<Tuple<${span}>>;
libfunc enum_init<${result}, 0> = enum_init<${result}, 0>;
libfunc enum_init<${result}, 1> = enum_init<${result}, 1>;
libfunc struct_construct<core::panics::Panic> = struct_construct<core::panics::Panic>;
libfunc struct_construct<Tuple<core::panics::Panic, Array<felt252>>> = struct_construct<Tuple<core::panics::Panic, Array<felt252>>>;
libfunc array_new<felt252> = array_new<felt252>;
libfunc array_append<felt252> = array_append<felt252>;
libfunc snapshot_take<Array<felt252>> = snapshot_take<Array<felt252>>;
libfunc struct_construct<${span}> = struct_construct<${span}>;
libfunc struct_deconstruct<${span}> = struct_deconstruct<${span}>;
libfunc array_snapshot_pop_front<felt252> = array_snapshot_pop_front<felt252>;
libfunc unbox<felt252> = unbox<felt252>;
libfunc struct_construct<Unit> = struct_construct<Unit>;
libfunc enum_init<core::bool, 0> = enum_init<core::bool, 0>;
libfunc deploy_syscall = deploy_syscall;

felt252_const<4660>() -> ([3]); // 0
send_message_to_l1_syscall([0], [1], [3], [2]) { fallthrough([4], [5]) 5([6], [7], [8]) }; // 1
struct_construct<Tuple<${span}>>([2]) -> ([9]); // 2
enum_init<${result}, 0>([9]) -> ([10]); // 3
return([4], [5], [10]); // 4
struct_construct<core::panics::Panic>() -> ([11]); // 5
struct_construct<Tuple<core::panics::Panic, Array<felt252>>>([11], [8]) -> ([12]); // 6
enum_init<${result}, 1>([12]) -> ([13]); // 7
return([6], [7], [13]); // 8
const_as_immediate<Const<u64, 1>>() -> ([3]); // 9
get_block_hash_syscall([0], [1], [3]) { fallthrough([4], [5], [6]) 18([7], [8], [9]) }; // 10
array_new<felt252>() -> ([10]); // 11
array_append<felt252>([10], [6]) -> ([11]); // 12
snapshot_take<Array<felt252>>([11]) -> ([12], [13]); // 13
struct_construct<${span}>([13]) -> ([14]); // 14
struct_construct<Tuple<${span}>>([14]) -> ([15]); // 15
enum_init<${result}, 0>([15]) -> ([16]); // 16
return([4], [5], [16]); // 17
struct_construct<core::panics::Panic>() -> ([17]); // 18
struct_construct<Tuple<core::panics::Panic, Array<felt252>>>([17], [9]) -> ([18]); // 19
enum_init<${result}, 1>([18]) -> ([19]); // 20
return([7], [8], [19]); // 21
struct_deconstruct<${span}>([2]) -> ([3]); // 22
array_snapshot_pop_front<felt252>([3]) { fallthrough([4], [5]) 43([6]) }; // 23
unbox<felt252>([5]) -> ([7]); // 24
felt252_const<4660>() -> ([8]); // 25
array_new<felt252>() -> ([9]); // 26
snapshot_take<Array<felt252>>([9]) -> ([10], [11]); // 27
struct_construct<${span}>([11]) -> ([12]); // 28
struct_construct<Unit>() -> ([13]); // 29
enum_init<core::bool, 0>([13]) -> ([14]); // 30
deploy_syscall([0], [1], [7], [8], [12], [14]) { fallthrough([15], [16], [17], [18]) 39([19], [20], [21]) }; // 31
array_new<felt252>() -> ([22]); // 32
array_append<felt252>([22], [17]) -> ([23]); // 33
snapshot_take<Array<felt252>>([23]) -> ([24], [25]); // 34
struct_construct<${span}>([25]) -> ([26]); // 35
struct_construct<Tuple<${span}>>([26]) -> ([27]); // 36
enum_init<${result}, 0>([27]) -> ([28]); // 37
return([15], [16], [28]); // 38
struct_construct<core::panics::Panic>() -> ([29]); // 39
struct_construct<Tuple<core::panics::Panic, Array<felt252>>>([29], [21]) -> ([30]); // 40
enum_init<${result}, 1>([30]) -> ([31]); // 41
return([19], [20], [31]); // 42
array_new<felt252>() -> ([32]); // 43
struct_construct<core::panics::Panic>() -> ([33]); // 44
struct_construct<Tuple<core::panics::Panic, Array<felt252>>>([33], [32]) -> ([34]); // 45
enum_init<${result}, 1>([34]) -> ([35]); // 46
return([0], [1], [35]); // 47

send@0([0]: GasBuiltin, [1]: System, [2]: ${span}) -> (GasBuiltin, System, ${result});
block_hash@9([0]: GasBuiltin, [1]: System, [2]: ${span}) -> (GasBuiltin, System, ${result});
deploy_self@22([0]: GasBuiltin, [1]: System, [2]: ${span}) -> (GasBuiltin, System, ${result});
`);
  return sierraContractClass(program, { send: 0, block_hash: 1, deploy_self: 2 });
}

describe('syscalls bound to the chain (a hand-written class)', () => {
  it('send_message_to_l1 fills messages_sent and the trace; get_block_hash reads the chain', async () => {
    const contract = syscallClass();
    const d = await alice.declare({ contract, compiledClassHash: '0x1' });
    expect((await wait(d.transaction_hash)).isSuccess()).toBe(true);
    declared.set('syscalls', d.class_hash);
    const address = await deploy(d.class_hash, []);
    const { transaction_hash } = await alice.execute({
      contractAddress: address,
      entrypoint: 'send',
      calldata: [7, 8],
    });
    expect((await wait(transaction_hash)).isSuccess()).toBe(true);
    const message = { from_address: hex(address), to_address: '0x1234', payload: ['0x7', '0x8'] };
    expect((await receipt(transaction_hash)).messages_sent).toEqual([message]);
    const trace = await rpcResult(dc.rpcUrl, 'starknet_traceTransaction', { transaction_hash });
    expect(trace.execute_invocation.calls[0].messages).toEqual([{ order: 0, ...message }]);
    expect(spec.checkResult('traceTransaction', trace)).toBeUndefined();
    expect(spec.checkResult('getTransactionReceipt', await receipt(transaction_hash))).toBeUndefined();
    expect(trace.execute_invocation.calls[0].result).toEqual(['0x7', '0x8']);

    // Block 1 becomes readable once it is 10 blocks deep.
    while ((await provider.getBlockNumber()) < 11) await rpcResult(dc.rpcUrl, 'devnet_createBlock');
    const block1 = await rpcResult(dc.rpcUrl, 'starknet_getBlockWithTxHashes', { block_id: { block_number: 1 } });
    expect(await provider.callContract({ contractAddress: address, entrypoint: 'block_hash' })).toEqual([
      block1.block_hash,
    ]);
  });

  it('deploy_syscall deploys a contract from a contract; a second deploy at the same address reverts', async () => {
    const classHash = declared.get('syscalls')!;
    const deployer = await deploy(classHash, []);
    const expected = hash.calculateContractAddressFromHash('0x1234', classHash, [], deployer);
    const first = await alice.execute({ contractAddress: deployer, entrypoint: 'deploy_self', calldata: [classHash] });
    expect((await wait(first.transaction_hash)).isSuccess()).toBe(true);
    expect(BigInt(await provider.getClassHashAt(expected))).toBe(BigInt(classHash));
    const trace = await rpcResult(dc.rpcUrl, 'starknet_traceTransaction', { transaction_hash: first.transaction_hash });
    expect(spec.checkResult('traceTransaction', trace)).toBeUndefined();
    const call = trace.execute_invocation.calls[0];
    expect(call.result).toEqual([hex(expected)]);
    expect(call.calls).toMatchObject([
      { contract_address: hex(expected), entry_point_type: 'CONSTRUCTOR', caller_address: hex(deployer), calldata: [] },
    ]);
    const again = await alice.execute(
      { contractAddress: deployer, entrypoint: 'deploy_self', calldata: [classHash] },
      BOUNDS,
    );
    expect((await wait(again.transaction_hash)).isReverted()).toBe(true);
    expect((await receipt(again.transaction_hash)).revert_reason).toMatch(
      /unavailable for deployment.*ENTRYPOINT_FAILED/s,
    );
  });
});

describe('declare checks the class against the VM', () => {
  it('refuses with 56 a class using a libfunc the VM lacks, naming it', async () => {
    const cls = readCairoTestData('hello_starknet__hello_starknet');
    const decoded = decodeSierraProgram(cls.sierra_program);
    const target = decoded.program.libfuncDeclarations.find((l) => l.genericId === 'storage_read_syscall')!;
    target.genericId = 'nodegate_no_such_libfunc';
    const altered = {
      ...cls,
      sierra_program: encodeSierraProgram(decoded).map((x) => num.toHex(x)),
    };
    delete altered.sierra_program_debug_info;
    const err = await alice.declare({ contract: altered, compiledClassHash: '0x1234' }, BOUNDS).catch((e) => e);
    expect(err).toMatchObject({ baseError: { code: 56 } });
    expect(JSON.stringify(err.baseError.data)).toMatch(/nodegate_no_such_libfunc/);
  });

  it('refuses with 56 a hand-written class exactly when the VM lists libfuncs it lacks, naming each', async () => {
    // One made-up libfunc and one real one the VM has no handler for (the test runner's `cheatcode`); the fixture
    // libfuncs_coverage, which uses every other libfunc, is accepted and runs (sierraCrypto.test.ts).
    const t = (name: string) => `type ${name} = ${name} [storable: true, drop: true, dup: true, zero_sized: false];`;
    const { program } = parseSierraText(`
${t('felt252')}
libfunc nodegate_made_up_libfunc = nodegate_made_up_libfunc;
libfunc cheatcode<0> = cheatcode<0>;
return([0]); // 0
f@0([0]: felt252) -> (felt252);
`);
    const missing = unsupportedLibfuncs(program);
    expect(missing).toEqual(['cheatcode', 'nodegate_made_up_libfunc']);
    const contract = sierraContractClass(program);
    const r = await alice.declare({ contract, compiledClassHash: '0x1' }, BOUNDS).catch((e) => e);
    expect(r).toMatchObject({ baseError: { code: 56 } });
    for (const name of missing) expect(JSON.stringify(r.baseError.data)).toContain(name);
  });
});
