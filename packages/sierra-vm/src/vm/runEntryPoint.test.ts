import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeGenericId } from '../encodeGenericId.js';
import { starknetKeccak } from '../starknetKeccak.js';
import { decodeShortString } from './decodeShortString.js';
import { parseSierraText } from './parseSierraText.js';
import { runFunction } from './runFunction.js';
import {
  cachedContractClass,
  type EntryPointResult,
  type EntryPointType,
  EntryPointNotFoundError,
  type LoadedContractClass,
  loadContractClass,
  runEntryPoint,
} from './runEntryPoint.js';
import { type ArrayValue, type ExecutionInfoOptions, type StarknetHost, SyscallFailure, type Value } from './types.js';

const FIXTURES = process.env.CAIRO_TEST_DATA ?? '/work/shared/fixtures/cairo-test-data';
/** A fixture class as a chain receives it over RPC: without its debug info. */
const fixture = (name: string) => {
  const { sierra_program_debug_info: _, ...cls } = JSON.parse(
    readFileSync(join(FIXTURES, `${name}.contract_class.json`), 'utf8'),
  );
  return cls;
};
const sel = (name: string) => starknetKeccak(name);
const ENTRYPOINT_FAILED = encodeGenericId('ENTRYPOINT_FAILED');

/**
 * A tiny in-memory Starknet for the host interface: contracts with their class and storage, events, and nested
 * calls (call_contract, library_call) run with runEntryPoint again. Failed nested calls return their panic data
 * and 'ENTRYPOINT_FAILED', as the protocol does.
 */
class World {
  readonly classes = new Map<bigint, LoadedContractClass>();
  readonly contracts = new Map<bigint, { classHash: bigint; storage: Map<bigint, bigint> }>();
  readonly events: { from: bigint; keys: bigint[]; data: bigint[] }[] = [];
  tx: ExecutionInfoOptions = {};

  declare(name: string, classHash: bigint): bigint {
    this.classes.set(classHash, loadContractClass(fixture(name), classHash));
    return classHash;
  }

  deploy(address: bigint, classHash: bigint, calldata: bigint[]): EntryPointResult {
    this.contracts.set(address, { classHash, storage: new Map() });
    return this.run(address, 'CONSTRUCTOR', sel('constructor'), calldata, 0n);
  }

  run(
    address: bigint,
    type: EntryPointType,
    selector: bigint,
    calldata: bigint[],
    caller: bigint,
    classHash?: bigint,
  ): EntryPointResult {
    const c = this.contracts.get(address);
    if (!c) throw new Error(`no contract ${address}`);
    const cls = this.classes.get(classHash ?? c.classHash)!;
    return runEntryPoint(cls, type, selector, calldata, { host: this.host(address, caller, selector) });
  }

  private nested(r: EntryPointResult): bigint[] {
    if (r.panic) throw new SyscallFailure([...r.panic.data, ENTRYPOINT_FAILED]);
    return r.retdata;
  }

  host(self: bigint, caller: bigint, selector: bigint): StarknetHost {
    const storage = this.contracts.get(self)!.storage;
    const no = (what: string) => () => {
      throw new Error(`${what} is not used by these tests`);
    };
    return {
      storageRead: (_d, key) => storage.get(key) ?? 0n,
      storageWrite: (_d, key, value) => {
        storage.set(key, value);
      },
      emitEvent: (keys, data) => {
        this.events.push({ from: self, keys, data });
      },
      callContract: (address, s, calldata) => this.nested(this.run(address, 'EXTERNAL', s, calldata, self)),
      libraryCall: (classHash, s, calldata) => this.nested(this.run(self, 'EXTERNAL', s, calldata, caller, classHash)),
      executionInfo: () => ({ ...this.tx, callerAddress: caller, contractAddress: self, entryPointSelector: selector }),
      deploy: no('deploy'),
      replaceClass: no('replace_class'),
      getBlockHash: no('get_block_hash'),
      getClassHashAt: no('get_class_hash_at'),
      sendMessageToL1: no('send_message_to_l1'),
    };
  }
}

describe('runEntryPoint: the entry point ABI on real classes (without debug info)', () => {
  it('runs the ERC20 constructor, transfers with events through the host, and returns panics decoded', () => {
    const w = new World();
    const erc20 = w.declare('erc20__erc_20', 0xe20n);
    expect(w.classes.get(erc20)!.unsupportedLibfuncs).toEqual([]);
    const token = 0x7001n;
    const ctor = w.deploy(token, erc20, [0x4e414d45n, 0x53594dn, 18n, 1000n, 0n, 0xaaan]);
    expect(ctor.retdata).toEqual([]);
    const transfer = w.run(token, 'EXTERNAL', sel('transfer'), [0xbbbn, 300n, 0n], 0xaaan);
    expect(transfer).toMatchObject({ retdata: [] });
    expect(w.events).toEqual([
      { from: token, keys: [sel('Transfer')], data: [0n, 0xaaan, 1000n, 0n] },
      { from: token, keys: [sel('Transfer')], data: [0xaaan, 0xbbbn, 300n, 0n] },
    ]);
    expect(w.run(token, 'EXTERNAL', sel('balance_of'), [0xaaan], 0n).retdata).toEqual([700n, 0n]);
    expect(w.run(token, 'EXTERNAL', sel('get_symbol'), [], 0n).retdata).toEqual([0x53594dn]);
    const overdraft = w.run(token, 'EXTERNAL', sel('transfer'), [0xbbbn, 3000n, 0n], 0xaaan);
    expect(overdraft.retdata).toBeUndefined();
    expect(overdraft.panic?.messages).toEqual(['u256_sub Overflow']);
    expect(w.run(token, 'EXTERNAL', sel('transfer'), [0n, 1n, 0n], 0xaaan).panic?.messages).toEqual([
      'ERC20: transfer to 0',
    ]);
    expect(w.run(token, 'EXTERNAL', sel('transfer'), [0xbbbn], 0xaaan).panic?.messages).toEqual([
      'Failed to deserialize param #2',
    ]);
    expect(w.run(token, 'EXTERNAL', sel('balance_of'), [0xbbbn], 0n).retdata).toEqual([300n, 0n]);
  });

  it('refuses an unknown selector or a wrong entry point type, and caches a class by hash', () => {
    const w = new World();
    const erc20 = w.declare('erc20__erc_20', 0xe21n);
    w.deploy(0x7002n, erc20, [1n, 2n, 18n, 5n, 0n, 0xaaan]);
    expect(() => w.run(0x7002n, 'EXTERNAL', sel('no_such_function'), [], 0n)).toThrow(EntryPointNotFoundError);
    expect(() => w.run(0x7002n, 'L1_HANDLER', sel('transfer'), [], 0n)).toThrow(/no L1_HANDLER entry point/);
    expect(cachedContractClass(erc20)).toBe(w.classes.get(erc20));
    expect(
      loadContractClass(
        { sierra_program: [], entry_points_by_type: fixture('erc20__erc_20').entry_points_by_type },
        erc20,
      ),
    ).toBe(w.classes.get(erc20));
  });

  it('answers call_contract through the host, and a SyscallFailure becomes the revert the contract panics with', () => {
    const w = new World();
    const test = w.declare('test_contract__test_contract', 0x7e57n);
    const erc20 = w.declare('erc20__erc_20', 0xe22n);
    w.deploy(0x100n, test, [1n]);
    w.deploy(0x200n, erc20, [1n, 2n, 18n, 5n, 0n, 0xaaan]);
    // call_foo(address, a) calls foo(a) on address. The ERC20 has no foo: the nested run throws
    // EntryPointNotFoundError, which is not a SyscallFailure, so it aborts the outer run too.
    expect(() => w.run(0x100n, 'EXTERNAL', sel('call_foo'), [0x200n, 21n], 0n)).toThrow(EntryPointNotFoundError);
    // No fixture has a foo: the host answers the call itself.
    const host = w.host(0x100n, 0n, sel('call_foo'));
    const ok = runEntryPoint(w.classes.get(test)!, 'EXTERNAL', sel('call_foo'), [0x123n, 21n], {
      host: { ...host, callContract: (_a, _s, calldata) => [calldata[0]! * 2n] },
    });
    expect(ok.retdata).toEqual([42n]);
    const reverted = runEntryPoint(w.classes.get(test)!, 'EXTERNAL', sel('call_foo'), [0x123n, 21n], {
      host: {
        ...host,
        callContract: () => {
          throw new SyscallFailure([encodeGenericId('boom'), ENTRYPOINT_FAILED]);
        },
      },
    });
    expect(reverted.panic?.messages).toEqual(['boom', 'ENTRYPOINT_FAILED']);
  });

  it('runs a library call in the caller context (the proxy forwarding to a counter class)', () => {
    const w = new World();
    const counter = w.declare('upgradable_counter__counter_contract', 0xc0c0n);
    const proxy = w.declare('proxy__proxy', 0x9909n);
    expect(w.deploy(0x300n, proxy, [counter]).panic).toBeUndefined();
    expect(w.run(0x300n, 'EXTERNAL', sel('increase_counter'), [5n], 0xaaan).panic).toBeUndefined();
    expect(w.run(0x300n, 'EXTERNAL', sel('increase_counter'), [7n], 0xaaan).panic).toBeUndefined();
    expect(w.run(0x300n, 'EXTERNAL', sel('get_counter'), [], 0n).retdata).toEqual([12n]);
    // The counter's event is emitted by the proxy (library calls run in the caller's context).
    expect(w.events.map((e) => e.from)).toEqual([0x300n, 0x300n]);
    expect(w.run(0x300n, 'EXTERNAL', sel('decrease_counter'), [13n], 0xaaan).panic?.messages).toEqual([
      'u128_sub Overflow',
      'ENTRYPOINT_FAILED',
    ]);
  });

  it('gives the v3 execution info (the transaction signature) to an account checking it', () => {
    const w = new World();
    const account = w.declare('account__account', 0xacc0n);
    expect(w.deploy(0x400n, account, [0x1234n]).panic).toBeUndefined();
    // validate_transaction first asserts a 2-felt signature, read from get_execution_info_v3's TxInfo.
    for (const signature of [[], [1n], [1n, 2n, 3n]]) {
      w.tx = { transactionHash: 0x5eedn, signature, version: 3n, accountAddress: 0x400n };
      expect(w.run(0x400n, 'EXTERNAL', sel('__validate__'), [0n], 0n).panic?.messages).toEqual([
        'INVALID_SIGNATURE_LENGTH',
      ]);
    }
    // __execute__ checks that its caller is 0 (get_caller_address, from the same execution info).
    w.tx = { version: 3n };
    expect(w.run(0x400n, 'EXTERNAL', sel('__execute__'), [0n], 0x99n).panic?.messages).toEqual(['INVALID_CALLER']);
    expect(w.run(0x400n, 'EXTERNAL', sel('__execute__'), [0n], 0n).retdata).toEqual([0n]); // no call results
    w.tx = { version: 0n };
    expect(w.run(0x400n, 'EXTERNAL', sel('__execute__'), [0n], 0n).panic?.messages).toEqual(['INVALID_TX_VERSION']);
  });
});

describe('syscalls no fixture class reaches, through a host (hand-written Sierra)', () => {
  const t = (name: string, generic = name) =>
    `type ${name} = ${generic} [storable: true, drop: true, dup: true, zero_sized: false];`;
  const text = `
${t('felt252')}
${t('GasBuiltin')}
${t('System')}
${t('Array<felt252>')}
${t('Snapshot<Array<felt252>>')}
${t('core::array::Span::<core::felt252>', 'Struct<ut@core::array::Span::<core::felt252>, Snapshot<Array<felt252>>>')}
${t('ClassHash')}
${t('ContractAddress')}
${t('u64')}
${t('Unit', 'Struct<ut@Tuple>')}
${t('core::bool', 'Enum<ut@core::bool, Unit, Unit>')}

libfunc deploy_syscall = deploy_syscall;
libfunc get_block_hash_syscall = get_block_hash_syscall;
libfunc get_class_hash_at_syscall = get_class_hash_at_syscall;
libfunc send_message_to_l1_syscall = send_message_to_l1_syscall;

deploy_syscall([0], [1], [2], [3], [4], [5]) { fallthrough([6], [7], [8], [9]) 2([10], [11], [12]) }; // 0
return([6], [7], [8], [9]); // 1
return([10], [11], [12], [12]); // 2
get_block_hash_syscall([0], [1], [2]) { fallthrough([3], [4], [5]) 5([6], [7], [8]) }; // 3
return([3], [4], [5]); // 4
return([6], [7], [8]); // 5
get_class_hash_at_syscall([0], [1], [2]) { fallthrough([3], [4], [5]) 8([6], [7], [8]) }; // 6
return([3], [4], [5]); // 7
return([6], [7], [8]); // 8
send_message_to_l1_syscall([0], [1], [2], [3]) { fallthrough([4], [5]) 11([6], [7], [8]) }; // 9
return([4], [5], [4]); // 10
return([6], [7], [8]); // 11

deploy@0([0]: GasBuiltin, [1]: System, [2]: ClassHash, [3]: felt252, [4]: core::array::Span::<core::felt252>, [5]: core::bool) -> (GasBuiltin, System, ContractAddress, core::array::Span::<core::felt252>);
block_hash@3([0]: GasBuiltin, [1]: System, [2]: u64) -> (GasBuiltin, System, felt252);
class_hash_at@6([0]: GasBuiltin, [1]: System, [2]: ContractAddress) -> (GasBuiltin, System, ClassHash);
message@9([0]: GasBuiltin, [1]: System, [2]: felt252, [3]: core::array::Span::<core::felt252>) -> (GasBuiltin, System, GasBuiltin);
`;
  const { program, funcNames } = parseSierraText(text);
  const felts = (v: Value) => {
    const a = (Array.isArray(v) ? v[0] : v) as ArrayValue;
    return a.data.slice(a.start, a.end) as bigint[];
  };
  const seen: unknown[] = [];
  const host: StarknetHost = {
    storageRead: () => 0n,
    storageWrite: () => {},
    emitEvent: () => {},
    callContract: () => [],
    libraryCall: () => [],
    executionInfo: () => ({}),
    replaceClass: () => {},
    deploy: (classHash, salt, calldata, fromZero) => {
      seen.push({ classHash, salt, calldata, fromZero });
      if (classHash === 0n) throw new SyscallFailure([encodeGenericId('CLASS_HASH_NOT_FOUND')]);
      return { address: classHash + salt, retdata: [7n, 8n] };
    },
    getBlockHash: (n) => {
      if (n > 90n) throw new SyscallFailure([encodeGenericId('Block number out of range')]);
      return 0xb000n + n;
    },
    getClassHashAt: (address) => address * 2n,
    sendMessageToL1: (to, payload) => {
      seen.push({ to, payload });
    },
  };
  const run = (fn: string, args: Value[]) => runFunction(program, fn, args, { funcNames, host }).values;
  const span = (xs: bigint[]): Value => [{ data: xs, start: 0, end: xs.length }];

  it('deploy: the class hash, salt, calldata and deploy_from_zero reach the host; address and retdata return', () => {
    const [address, retdata] = run('deploy', [0x10n, 0x5n, span([1n, 2n]), { tag: 1, value: [] }]);
    expect(address).toBe(0x15n);
    expect(felts(retdata!)).toEqual([7n, 8n]);
    expect(seen.pop()).toEqual({ classHash: 0x10n, salt: 5n, calldata: [1n, 2n], fromZero: true });
    const [err] = run('deploy', [0n, 0x5n, span([]), { tag: 0, value: [] }]);
    expect(felts(err!).map(decodeShortString)).toEqual(['CLASS_HASH_NOT_FOUND']);
    expect(seen.pop()).toMatchObject({ fromZero: false });
  });

  it('get_block_hash, get_class_hash_at and send_message_to_l1 go to the host; a failure takes the error branch', () => {
    expect(run('block_hash', [5n])).toEqual([0xb005n]);
    expect(felts(run('block_hash', [95n])[0]!).map(decodeShortString)).toEqual(['Block number out of range']);
    expect(run('class_hash_at', [0x21n])).toEqual([0x42n]);
    run('message', [0x1234n, span([3n, 4n])]);
    expect(seen.pop()).toEqual({ to: 0x1234n, payload: [3n, 4n] });
  });

  it('without a host, these syscalls fail with SYSCALL_NOT_SUPPORTED', () => {
    const [err] = runFunction(program, 'block_hash', [5n], { funcNames }).values;
    expect(felts(err!).map(decodeShortString)).toEqual(['SYSCALL_NOT_SUPPORTED']);
  });
});
