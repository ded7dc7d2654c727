// The gas model: statements, builtins and syscalls cost gas, withdraw_gas settles it, nested calls spend the caller's
// gas, and a loop that never ends runs out of gas (test-contracts/gas_loops, compiled by wasm-cairo).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallData, type RawArgsObject } from 'starknet';
import { describe, expect, it } from 'vitest';
import { encodeGenericId } from '../encodeGenericId.js';
import { starknetKeccak } from '../starknetKeccak.js';
import { findHandlerFactory } from './findHandlerFactory.js';
import { ENTRY_POINT_INITIAL_GAS, libfuncBuiltinGas, STATEMENT_GAS, SYSCALL_GAS } from './gasCosts.js';
import { parseSierraText } from './parseSierraText.js';
import { prepareProgram } from './prepareProgram.js';
import { type EntryPointResult, loadContractClass, runEntryPoint } from './runEntryPoint.js';
import { runFunction } from './runFunction.js';
import { type ArrayValue, type CallGas, type StarknetHost, SyscallFailure, type Value } from './types.js';
import { newRunContext } from './newRunContext.js';

const contract = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'test-contracts', 'gas_loops.contract_class.json'), 'utf8'),
);
const cls = loadContractClass(contract);
const abi = new CallData(contract.abi);
const OUT_OF_GAS = encodeGenericId('Out of gas');
const ENTRYPOINT_FAILED = encodeGenericId('ENTRYPOINT_FAILED');

/** Two gas_loops contracts (0xa and 0xb) with their storage; calls between them go through the host with their gas. */
class World {
  readonly storage = new Map<bigint, Map<bigint, bigint>>([
    [0xan, new Map()],
    [0xbn, new Map()],
  ]);
  /** The budgets nested calls were given. */
  readonly nestedBudgets: bigint[] = [];

  run(self: bigint, name: string, args: RawArgsObject, gas: bigint, statementGasCost?: number): EntryPointResult {
    const calldata = abi.compile(name, args).map((x) => BigInt(x));
    return this.runRaw(self, starknetKeccak(name), calldata, gas, statementGasCost);
  }

  private runRaw(self: bigint, selector: bigint, calldata: bigint[], gas: bigint, statementGasCost?: number) {
    return runEntryPoint(cls, 'EXTERNAL', selector, calldata, {
      host: this.host(self, statementGasCost),
      availableGas: gas,
      ...(statementGasCost !== undefined ? { statementGasCost } : {}),
    });
  }

  host(self: bigint, statementGasCost?: number): StarknetHost {
    const storage = this.storage.get(self)!;
    const unused = () => {
      throw new Error('not used by these tests');
    };
    return {
      storageRead: (_d, key) => storage.get(key) ?? 0n,
      storageWrite: (_d, key, value) => {
        storage.set(key, value);
      },
      callContract: (address, selector, calldata, gas?: CallGas) => {
        if (!gas) throw new Error('the VM passes the nested call its gas');
        this.nestedBudgets.push(gas.available);
        const r = this.runRaw(address, selector, calldata, gas.available, statementGasCost);
        gas.used = r.gasUsed;
        if (r.panic) throw new SyscallFailure([...r.panic.data, ENTRYPOINT_FAILED]);
        return r.retdata;
      },
      emitEvent: unused,
      libraryCall: unused,
      deploy: unused,
      replaceClass: unused,
      executionInfo: unused,
      getBlockHash: unused,
      getClassHashAt: unused,
      sendMessageToL1: unused,
    };
  }
}

const BUDGET = 10n ** 9n;

describe('gas of compiled code (gas_loops)', () => {
  it("a loop that never ends fails with 'Out of gas' and uses all its gas", () => {
    const w = new World();
    for (const gas of [10n ** 6n, 10n ** 7n]) {
      const r = w.run(0xan, 'spin', { start: 1 }, gas);
      expect(r.panic?.messages).toEqual(['Out of gas']);
      expect(r.gasUsed).toBeGreaterThan(gas - 5_000n); // less than one loop iteration is left
      expect(r.gasUsed).toBeLessThanOrEqual(gas);
      // It stopped where its gas ran out (the statements of the panic path after that cannot be paid).
      expect(r.steps * STATEMENT_GAS).toBeGreaterThan(Number(gas) * 0.9);
      expect(r.steps * STATEMENT_GAS).toBeLessThan(Number(gas) * 1.05);
    }
  });

  it('charges every statement once: with a zero statement cost the gas drops by exactly steps × 100', () => {
    const w = new World();
    for (const [name, args] of [
      ['count', { n: 57 }],
      ['write_many', { n: 9 }],
      ['total', {}],
      ['call_count', { target: 0xbn, n: 40 }],
    ] as const) {
      const full = w.run(0xan, name, args, BUDGET);
      const builtinsOnly = w.run(0xan, name, args, BUDGET, 0);
      expect(full.panic, name).toBeUndefined();
      // The nested call's statements (0xb) are counted by its own run: subtract them too.
      const nested = name === 'call_count' ? w.run(0xbn, 'count', { n: 40 }, BUDGET) : undefined;
      const nestedSteps = nested ? BigInt(nested.steps) : 0n;
      expect(full.gasUsed - builtinsOnly.gasUsed, name).toBe(
        (BigInt(full.steps) + nestedSteps) * BigInt(STATEMENT_GAS),
      );
    }
  });

  it('a loop costs the same per iteration: the gas is affine in the iteration count', () => {
    const w = new World();
    const used = [0, 100, 200, 400].map((n) => w.run(0xan, 'count', { n }, BUDGET).gasUsed);
    const perHundred = used[2]! - used[1]!;
    expect(used[1]! - used[0]!).toBe(perHundred);
    expect(used[3]! - used[2]!).toBe(2n * perHundred);
    // Each iteration runs a withdraw_gas and a u32 addition (a range check each) besides its statements.
    const steps = w.run(0xan, 'count', { n: 200 }, BUDGET).steps - w.run(0xan, 'count', { n: 100 }, BUDGET).steps;
    expect(perHundred).toBeGreaterThanOrEqual(
      BigInt(steps * STATEMENT_GAS + 100 * 2 * libfuncBuiltinGas('u32_overflowing_add')),
    );
    expect(used[0]).toBeGreaterThan(BigInt(ENTRY_POINT_INITIAL_GAS));
  });

  it('storage writes take their syscall cost', () => {
    const w = new World();
    const zero = w.run(0xan, 'write_many', { n: 0 }, BUDGET, 0).gasUsed;
    const ten = w.run(0xan, 'write_many', { n: 10 }, BUDGET, 0).gasUsed;
    expect(ten - zero).toBeGreaterThan(10n * BigInt(SYSCALL_GAS.storage_write));
    expect(w.run(0xan, 'total', {}, BUDGET).retdata).toEqual([55n]);
  });

  it("a nested call gets the caller's remaining gas and its consumption is the caller's", () => {
    const w = new World();
    const direct = (n: number) => w.run(0xbn, 'count', { n }, BUDGET).gasUsed;
    const viaCall = (n: number) => w.run(0xan, 'call_count', { target: 0xbn, n }, BUDGET);
    const r = viaCall(300);
    expect(r.retdata).toEqual([300n]);
    expect(viaCall(300).gasUsed - viaCall(0).gasUsed).toBe(direct(300) - direct(0));
    // The callee's budget: what the caller had left after its own statements and the call_contract cost.
    const budget = w.nestedBudgets.at(-1)!;
    expect(budget).toBeLessThan(BUDGET - BigInt(ENTRY_POINT_INITIAL_GAS + SYSCALL_GAS.call_contract));
    expect(budget).toBeGreaterThan(BUDGET - 200_000n);
  });

  it('a nested call that runs out of gas uses all of it: the caller runs out too', () => {
    const w = new World();
    const r = w.run(0xan, 'call_spin', { target: 0xbn }, 10n ** 7n);
    expect(r.panic?.messages).toContain('Out of gas');
    expect(r.gasUsed).toBeGreaterThan(10n ** 7n - 5_000n);
  });
});

describe('gas of hand-written Sierra and of syscalls called directly', () => {
  const text = `
type GasBuiltin = GasBuiltin [storable: true, drop: false, dup: false, zero_sized: false];
type felt252 = felt252 [storable: true, drop: true, dup: true, zero_sized: false];
libfunc jump = jump;
libfunc felt252_const<7> = felt252_const<7>;

jump() { 1() }; // 0
jump() { 2() }; // 1
jump() { 3() }; // 2
felt252_const<7>() -> ([1]); // 3
return([0], [1]); // 4

f@0([0]: GasBuiltin) -> (GasBuiltin, felt252);
`;
  const { program } = parseSierraText(text);

  it('pays the statements since the last withdrawal from the returned counter, or reports outOfGas', () => {
    expect(runFunction(program, 0, [], { availableGas: 1000n })).toMatchObject({ gasLeft: 500n, steps: 5 });
    expect(runFunction(program, 0, [], { availableGas: 499n })).toMatchObject({ gasLeft: 0n, outOfGas: true });
    expect(runFunction(program, 0, [], { availableGas: 1000n, statementGasCost: 7 }).gasLeft).toBe(965n);
  });

  const env = { program, registry: prepareProgram(program).registry };
  const ctx = newRunContext();
  const call = (genericId: string, args: Value[]): [number, Value[]] => {
    const out: Value[] = [];
    return [findHandlerFactory(genericId)!({ id: 0, genericId, genericArgs: [] }, env)(args, out, ctx), out];
  };
  const felts = (v: Value | undefined) => {
    const a = v as ArrayValue;
    return a.data.slice(a.start, a.end);
  };
  const span = (n: number): Value => [{ data: new Array<Value>(n).fill(0n), start: 0, end: n } satisfies ArrayValue];

  it("takes each syscall's cost from its counter, or fails with 'Out of gas' leaving the counter", () => {
    const cost = BigInt(SYSCALL_GAS.storage_write);
    expect(call('storage_write_syscall', [cost + 5n, null, 0n, 1n, 2n])).toEqual([0, [5n, null]]);
    expect(ctx.storage.get(1n)).toBe(2n);
    const [branch, out] = call('storage_write_syscall', [cost - 1n, null, 0n, 3n, 4n]);
    expect(branch).toBe(1);
    expect(out[0]).toBe(cost - 1n);
    expect(felts(out[2])).toEqual([OUT_OF_GAS]);
    expect(ctx.storage.has(3n)).toBe(false);
  });

  it('keccak takes a base cost and one round per 17-word block', () => {
    const two = BigInt(SYSCALL_GAS.keccak + 2 * SYSCALL_GAS.keccakRound);
    expect(call('keccak_syscall', [two, null, span(34)])[1][0]).toBe(0n);
    expect(call('keccak_syscall', [two - 1n, null, span(34)])[0]).toBe(1);
  });
});
