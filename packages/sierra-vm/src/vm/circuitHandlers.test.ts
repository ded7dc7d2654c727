// Circuit, u96 guarantee and u256 inverse handlers called directly: edge cases the oracle programs reach only
// through the compiled corelib (tests/programs circuits and u256_inv_mod compare whole runs with the Cairo runner).
import { describe, expect, it } from 'vitest';
import { findHandlerFactory } from './findHandlerFactory.js';
import { circuitPlan, evalCircuit, fromLimbs, toLimbs } from './libfuncs/circuitHandlers.js';
import { invMod } from './libfuncs/common.js';
import { parseSierraText } from './parseSierraText.js';
import { prepareProgram } from './prepareProgram.js';
import type { GenericArg } from '../types.js';
import type { Value } from './types.js';
import { newRunContext } from './newRunContext.js';

const { program } = parseSierraText(`
type CircuitInput<0> = CircuitInput<0> [storable: false, drop: false, dup: false, zero_sized: true];
type CircuitInput<1> = CircuitInput<1> [storable: false, drop: false, dup: false, zero_sized: true];
type SubModGate<CircuitInput<0>, CircuitInput<1>> = SubModGate<CircuitInput<0>, CircuitInput<1>> [storable: false, drop: false, dup: false, zero_sized: true];
type InverseGate<SubModGate<CircuitInput<0>, CircuitInput<1>>> = InverseGate<SubModGate<CircuitInput<0>, CircuitInput<1>>> [storable: false, drop: false, dup: false, zero_sized: true];
type Tuple<InverseGate<SubModGate<CircuitInput<0>, CircuitInput<1>>>> = Struct<ut@Tuple, InverseGate<SubModGate<CircuitInput<0>, CircuitInput<1>>>> [storable: false, drop: false, dup: false, zero_sized: true];
type Circuit<Tuple<InverseGate<SubModGate<CircuitInput<0>, CircuitInput<1>>>>> = Circuit<Tuple<InverseGate<SubModGate<CircuitInput<0>, CircuitInput<1>>>>> [storable: false, drop: false, dup: false, zero_sized: true];
`);
const env = { program, registry: prepareProgram(program).registry };
const ctx = newRunContext();
const CIRCUIT = 5;
function call(genericId: string, args: Value[], genericArgs: GenericArg[] = []): [number, Value[]] {
  const out: Value[] = [];
  const branch = findHandlerFactory(genericId)!({ id: 0, genericId, genericArgs }, env)(args, out, ctx);
  return [branch, out];
}
const circuit: GenericArg[] = [{ kind: 'type', id: CIRCUIT }];

describe('circuits', () => {
  it('plans inputs then gates in dependency order', () => {
    const plan = circuitPlan(program, CIRCUIT);
    expect(plan.nInputs).toBe(2);
    expect(plan.gates.map((g) => g.op)).toEqual(['sub', 'inv']);
    expect(evalCircuit(plan, [3n, 5n], 7n)).toEqual([3n, 5n, 5n, 3n]); // 3 - 5 = 5, 1/5 = 3 (mod 7)
    expect(evalCircuit(plan, [9n, 2n], 7n)).toEqual({ notInvertible: 0n });
  });
  it('accumulates inputs, evaluates and fails on a non-invertible value', () => {
    let [b, out] = call('init_circuit_data', [null], circuit);
    expect(b).toBe(0);
    [b, out] = call('add_circuit_input', [out[1]!, toLimbs(3n)], circuit);
    expect(b).toBe(1);
    [b, out] = call('add_circuit_input', [out[0]!, toLimbs(5n)], circuit);
    expect(b).toBe(0);
    const data = out[0]!;
    const [ok, res] = call('eval_circuit', [null, null, null, data, 7n, 0n, 1n], circuit);
    expect(ok).toBe(0);
    const [, got] = call('get_circuit_output', [res[2]!], [...circuit, { kind: 'type', id: 3 }]);
    expect(fromLimbs(got[0])).toBe(3n);
    const [fail, partial] = call('eval_circuit', [null, null, null, [12n, 5n], 7n, 0n, 1n], circuit);
    expect(fail).toBe(1);
    const [, verified] = call('circuit_failure_guarantee_verify', [null, null, partial[3]!, 0n, 1n]);
    const [lhs, rhs] = verified[2] as [bigint[], bigint[]];
    expect(fromLimbs(lhs)).toBeLessThan(fromLimbs(rhs));
  });
  it('refuses moduli 0 and 1', () => {
    expect(call('try_into_circuit_modulus', [toLimbs(1n)])[0]).toBe(1);
    expect(call('try_into_circuit_modulus', [toLimbs(0n)])[0]).toBe(1);
    expect(call('try_into_circuit_modulus', [toLimbs(1n << 300n)])).toEqual([0, [1n << 300n]]);
  });
  it('walks a u384 less-than guarantee down to a u96 guarantee', () => {
    const g = [toLimbs(5n | (7n << 288n)), toLimbs(9n | (7n << 288n))];
    const four: GenericArg[] = [{ kind: 'value', value: 4n }];
    const [b4, o4] = call('u96_limbs_less_than_guarantee_verify', [g], four);
    expect(b4).toBe(0); // top limbs equal (7)
    const [b3, o3] = call('u96_limbs_less_than_guarantee_verify', [o4[0]!], [{ kind: 'value', value: 3n }]);
    expect(b3).toBe(0);
    const [b2, o2] = call('u96_limbs_less_than_guarantee_verify', [o3[0]!], [{ kind: 'value', value: 2n }]);
    expect(b2).toBe(0);
    expect(call('u96_single_limb_less_than_guarantee_verify', [o2[0]!])).toEqual([0, [3n]]);
    const [bd, od] = call('u96_limbs_less_than_guarantee_verify', [[toLimbs(1n << 200n), toLimbs(3n << 288n)]], four);
    expect([bd, od[0]]).toEqual([1, 2n]);
  });
});

describe('u256 inverse modulo n', () => {
  const u256 = (x: bigint): Value => [x & ((1n << 128n) - 1n), x >> 128n];
  it('inverts when gcd is 1, not when n is 1 or gcd > 1', () => {
    expect(call('u256_guarantee_inv_mod_n', [null, u256(29n), u256(24n)])[1][1]).toEqual(u256(5n));
    expect(call('u256_guarantee_inv_mod_n', [null, u256(8n), u256(24n)])[0]).toBe(1);
    expect(call('u256_guarantee_inv_mod_n', [null, u256(7n), u256(1n)])[0]).toBe(1);
    expect(call('u256_guarantee_inv_mod_n', [null, u256(0n), u256(7n)])[0]).toBe(1);
    const n = (1n << 255n) - 19n;
    const [b, out] = call('u256_guarantee_inv_mod_n', [null, u256(2n), u256(n)]);
    expect(b).toBe(0);
    expect(out).toHaveLength(10);
    const [lo, hi] = out[1] as [bigint, bigint];
    expect((((hi << 128n) | lo) * 2n) % n).toBe(1n);
    expect(invMod(3n, 6n)).toBeUndefined();
  });
});

describe('pass-through libfuncs', () => {
  it('wraps, guarantees and hash state handles keep the value', () => {
    expect(call('bounded_int_wrap_non_zero', [5n])).toEqual([0, [5n]]);
    expect(call('into_u96_guarantee', [5n])).toEqual([0, [5n]]);
    expect(call('u96_guarantee_verify', [null, 5n])).toEqual([0, [null]]);
    const state = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n];
    expect(call('sha256_state_handle_digest', call('sha256_state_handle_init', [state])[1])[1][0]).toBe(state);
    expect(call('sha512_state_handle_digest', call('sha512_state_handle_init', [state])[1])[1][0]).toBe(state);
  });
});
