import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeSierraProgram } from '../decodeSierraProgram.js';
import { longGenericIdsFromDebugInfo } from '../longGenericIdsFromDebugInfo.js';
import { starknetKeccak } from '../starknetKeccak.js';
import { parseSierraText } from './parseSierraText.js';
import { runFunction } from './runFunction.js';
import { SierraRunError } from './SierraRunError.js';
import type { ArrayValue, EnumValue, Value } from './types.js';

const FIXTURES = process.env.CAIRO_TEST_DATA ?? '/work/shared/fixtures/cairo-test-data';
const HELLO = join(FIXTURES, 'hello_starknet__hello_starknet.contract_class.json');
const span = (xs: bigint[]): Value => [{ data: xs, start: 0, end: xs.length }];
const spanOf = (ok: Value): bigint[] => {
  const a = ((ok as Value[])[0] as Value[])[0] as ArrayValue;
  return a.data.slice(a.start, a.end) as bigint[];
};

describe.skipIf(!existsSync(HELLO))('runFunction on a real contract class (hello_starknet)', () => {
  const cls = JSON.parse(readFileSync(HELLO, 'utf8'));
  const { program } = decodeSierraProgram(cls.sierra_program, {
    longGenericIds: longGenericIdsFromDebugInfo(cls.sierra_program_debug_info),
  });
  const funcNames = new Map<number, string>(cls.sierra_program_debug_info.user_func_names);

  it('runs the entry point wrappers against an in-memory storage', () => {
    const storage = new Map<bigint, bigint>();
    const opts = { funcNames, storage };
    for (const amount of [5n, 7n]) {
      const r = runFunction(program, '__wrapper__HelloStarknetImpl__increase_balance', [span([amount])], opts);
      expect(r.panic).toBeUndefined();
      expect((r.values[0] as EnumValue).tag).toBe(0);
      expect(spanOf((r.values[0] as EnumValue).value)).toEqual([]);
    }
    const r = runFunction(program, '__wrapper__HelloStarknetImpl__get_balance', [span([])], opts);
    expect(spanOf((r.values[0] as EnumValue).value)).toEqual([12n]);
    expect([...storage.values()]).toEqual([12n]);
    expect(r.gasLeft).toBeLessThan(1_000_000_000n);
  });

  it('returns the panic of a wrapper given bad calldata', () => {
    const r = runFunction(program, '__wrapper__HelloStarknetImpl__increase_balance', [span([])], { funcNames });
    expect(r.panic?.messages).toEqual(['Failed to deserialize param #1']);
  });

  it('rejects wrong arguments and unknown functions', () => {
    expect(() => runFunction(program, 0, [], {})).toThrow(SierraRunError);
    expect(() => runFunction(program, 'no_such_function', [span([])], { funcNames })).toThrow(SierraRunError);
  });
});

describe('runFunction on hand-written Sierra', () => {
  const text = `
type [0] = felt252 [storable: true, drop: true, dup: true, zero_sized: false];
type [1] = NonZero<[0]> [storable: true, drop: true, dup: true, zero_sized: false];
libfunc [0] = felt252_is_zero;
libfunc [1] = felt252_sub;
libfunc [2] = felt252_const<1>;
libfunc [3] = drop<[1]>;
libfunc [4] = function_call<user@countdown>;
libfunc [5] = dup<[0]>;
libfunc [6] = nodegate_no_such_libfunc;

[5]([0]) -> ([0], [1]); // 0
[0]([1]) { fallthrough() 3([2]) }; // 1
return([0]); // 2
[3]([2]) -> (); // 3
[2]() -> ([3]); // 4
[1]([0], [3]) -> ([4]); // 5
[4]([4]) -> ([5]); // 6
return([5]); // 7
[6]([0]) -> ([1]); // 8
return([1]); // 9

countdown@0([0]: [0]) -> ([0]);
unsupported@8([0]: [0]) -> ([0]);
`;
  const { program, funcNames } = parseSierraText(text);

  it('recurses through function_call frames', () => {
    expect(runFunction(program, 'countdown', [1000n], { funcNames }).values).toEqual([0n]);
    expect(runFunction(program, 0, [3n]).steps).toBe(3 * 7 + 3);
  });

  it('stops at the step limit', () => {
    expect(() => runFunction(program, 0, [10n ** 9n], { maxSteps: 1000 })).toThrow(/step limit/);
  });

  it('throws when it reaches a libfunc without handler', () => {
    expect(() => runFunction(program, 'unsupported', [1n], { funcNames })).toThrow(
      /unsupported libfunc nodegate_no_such_libfunc/,
    );
  });
});

const ERC20 = join(FIXTURES, 'erc20__erc_20.contract_class.json');
describe.skipIf(!existsSync(ERC20))('runFunction on a real ERC20 class (erc20__erc_20)', () => {
  const cls = JSON.parse(readFileSync(ERC20, 'utf8'));
  const { program } = decodeSierraProgram(cls.sierra_program, {
    longGenericIds: longGenericIdsFromDebugInfo(cls.sierra_program_debug_info),
  });
  const funcNames = new Map<number, string>(cls.sierra_program_debug_info.user_func_names);
  const storage = new Map<bigint, bigint>();
  /** Calls an entry point wrapper as `caller`: the returned span, or the panic messages. */
  const call = (entry: string, calldata: bigint[], caller = 0n) => {
    const r = runFunction(program, `__wrapper__${entry}`, [span(calldata)], {
      funcNames,
      storage,
      executionInfo: { callerAddress: caller },
    });
    return { out: r.panic ? r.panic.messages : spanOf((r.values[0] as EnumValue).value), events: r.events };
  };
  const transferKey = starknetKeccak('Transfer');

  it('deploys, transfers with a Transfer event, and panics on an overdraft', () => {
    const ctor = call('constructor', [0x4e414d45n, 0x53594dn, 18n, 1000n, 0n, 0xaaan]);
    expect(ctor.out).toEqual([]);
    expect(ctor.events).toEqual([{ keys: [transferKey], data: [0n, 0xaaan, 1000n, 0n] }]);
    expect(call('IERC20Impl__get_symbol', []).out).toEqual([0x53594dn]);
    const t = call('IERC20Impl__transfer', [0xbbbn, 300n, 0n], 0xaaan);
    expect(t.out).toEqual([]);
    expect(t.events).toEqual([{ keys: [transferKey], data: [0xaaan, 0xbbbn, 300n, 0n] }]);
    expect(call('IERC20Impl__balance_of', [0xaaan]).out).toEqual([700n, 0n]);
    expect(call('IERC20Impl__balance_of', [0xbbbn]).out).toEqual([300n, 0n]);
    expect(call('IERC20Impl__transfer', [0xbbbn, 3000n, 0n], 0xaaan).out).toEqual(['u256_sub Overflow']);
  });
});

const TEST_CONTRACT = join(FIXTURES, 'test_contract__test_contract.contract_class.json');
describe.skipIf(!existsSync(TEST_CONTRACT))('runFunction on test_contract (calls, dicts)', () => {
  const cls = JSON.parse(readFileSync(TEST_CONTRACT, 'utf8'));
  const { program } = decodeSierraProgram(cls.sierra_program, {
    longGenericIds: longGenericIdsFromDebugInfo(cls.sierra_program_debug_info),
  });
  const funcNames = new Map<number, string>(cls.sierra_program_debug_info.user_func_names);
  const run = (entry: string, calldata: bigint[], options = {}) => {
    const r = runFunction(program, `__wrapper__Impl__${entry}`, [span(calldata)], { funcNames, ...options });
    return r.panic ? r.panic.messages : spanOf((r.values[0] as EnumValue).value);
  };

  it('answers call_contract and library_call through callContract, or reverts without it', () => {
    const calls: unknown[] = [];
    const callContract = (c: { kind: string; target: bigint; selector: bigint; calldata: bigint[] }) => {
      calls.push(c);
      return [c.calldata[0]! * 2n];
    };
    expect(run('call_foo', [0x123n, 21n], { callContract })).toEqual([42n]);
    expect(calls).toEqual([{ kind: 'call', target: 0x123n, selector: starknetKeccak('foo'), calldata: [21n] }]);
    expect(run('libcall_foo', [4n], { callContract })).toEqual([8n]);
    expect(run('call_foo', [0x123n, 21n])).toContain('CALL_CONTRACT_NOT_SUPPORTED');
  });

  it('runs a function using Felt252Dict (segment arena)', () => {
    expect(run('segment_arena_builtin', [])).toEqual([]);
  });
});

const UPGRADABLE = join(FIXTURES, 'upgradable_counter__counter_contract.contract_class.json');
describe.skipIf(!existsSync(UPGRADABLE))('runFunction on upgradable_counter (replace_class)', () => {
  const cls = JSON.parse(readFileSync(UPGRADABLE, 'utf8'));
  const { program } = decodeSierraProgram(cls.sierra_program, {
    longGenericIds: longGenericIdsFromDebugInfo(cls.sierra_program_debug_info),
  });
  const funcNames = new Map<number, string>(cls.sierra_program_debug_info.user_func_names);
  const wrappers = [...funcNames.values()].filter((n) => n.includes('__wrapper__'));

  it('checks the owner (never set: the zero address) and records the class hash of an upgrade', () => {
    const upgrade = wrappers.find((n) => n.includes('__wrapper__UpgradableImpl__upgrade'))!;
    const storage = new Map<bigint, bigint>();
    const as = (caller: bigint) => ({ funcNames, storage, executionInfo: { callerAddress: caller } });
    const ctor = runFunction(
      program,
      wrappers.find((n) => n.endsWith('__wrapper__constructor'))!,
      [span([5n])],
      as(7n),
    );
    expect(ctor.panic).toBeUndefined();
    expect(runFunction(program, upgrade, [span([0x1234n])], as(0x99n)).panic?.messages).toEqual(['Wrong owner.']);
    const r = runFunction(program, upgrade, [span([0x1234n])], as(0n));
    expect(r.panic).toBeUndefined();
    expect(r.replacedClasses).toEqual([0x1234n]);
    expect(r.events).toHaveLength(1);
    expect(new Set(storage.values())).toEqual(new Set([5n, 0x1234n]));
  });
});
