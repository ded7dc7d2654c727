import type { SierraProgram } from '../../types.js';
import { SierraRunError } from '../SierraRunError.js';
import type { HandlerFactory, LibfuncEnv, LibfuncHandler, Value } from '../types.js';
import { big, invMod, typeArg, valueArg } from './common.js';

const MASK96 = (1n << 96n) - 1n;

/** A u384 as four u96 limbs (least significant first), and back. */
export const fromLimbs = (v: Value | undefined): bigint => {
  const l = v as bigint[];
  return l[0]! | (l[1]! << 96n) | (l[2]! << 192n) | (l[3]! << 288n);
};
export const toLimbs = (x: bigint): bigint[] => [x & MASK96, (x >> 96n) & MASK96, (x >> 192n) & MASK96, x >> 288n];

/** One gate of a circuit: `out = a op b` (inverse: `out = 1 / a`), on slots of the values array. */
interface Gate {
  op: 'add' | 'sub' | 'mul' | 'inv';
  a: number;
  b: number;
  out: number;
}

/**
 * A `Circuit<(outputs…)>` ready to evaluate: slots `0..nInputs` hold the inputs (by `CircuitInput<i>` index),
 * then one slot per gate, gates listed so that each comes after its operands.
 */
export interface CircuitPlan {
  nInputs: number;
  gates: Gate[];
  /** Slot of each circuit component type (inputs and gates). */
  slotOf: Map<number, number>;
}

const plans = new WeakMap<SierraProgram, Map<number, CircuitPlan>>();

/** The plan of the circuit type `circuitTy` (cached per program). */
export function circuitPlan(program: SierraProgram, circuitTy: number): CircuitPlan {
  let perProgram = plans.get(program);
  if (!perProgram) {
    perProgram = new Map();
    plans.set(program, perProgram);
  }
  const cached = perProgram.get(circuitTy);
  if (cached) return cached;
  const decl = (id: number) => {
    const d = program.typeDeclarations[id];
    if (!d) throw new SierraRunError(`circuit: type ${id} is not declared`);
    return d;
  };
  const argType = (id: number, i: number): number => {
    const a = decl(id).genericArgs[i];
    if (a?.kind !== 'type') throw new SierraRunError(`circuit: type ${id} argument ${i} is not a type`);
    return a.id;
  };
  const circuit = decl(circuitTy);
  if (circuit.genericId !== 'Circuit') throw new SierraRunError(`type ${circuitTy} is not a Circuit`);
  const tuple = decl(argType(circuitTy, 0));
  if (tuple.genericId !== 'Struct') throw new SierraRunError('circuit: the outputs are not a tuple');
  const outputs = tuple.genericArgs.slice(1).map((_, i) => argType(tuple.id, i + 1));

  // Inputs first: each CircuitInput<i> reachable from the outputs gets slot i; indices must be 0..n-1.
  const inputs = new Map<number, number>();
  const seen = new Set<number>();
  const todo = [...outputs];
  while (todo.length > 0) {
    const t = todo.pop()!;
    if (seen.has(t)) continue;
    seen.add(t);
    const d = decl(t);
    if (d.genericId === 'CircuitInput') {
      const a = d.genericArgs[0];
      if (a?.kind !== 'value') throw new SierraRunError('CircuitInput without an index');
      inputs.set(t, Number(a.value));
    } else for (let i = 0; i < d.genericArgs.length; i++) todo.push(argType(t, i));
  }
  const nInputs = inputs.size;
  const indices = [...inputs.values()].sort((x, y) => x - y);
  if (nInputs === 0 || indices.some((v, i) => v !== i)) throw new SierraRunError('circuit: bad input indices');
  const slotOf = new Map(inputs);

  // Gates in post order (operands before the gate).
  const gates: Gate[] = [];
  const stack = outputs.map((t): [number, boolean] => [t, true]);
  while (stack.length > 0) {
    const [t, first] = stack.pop()!;
    if (slotOf.has(t)) continue;
    const d = decl(t);
    const operands = d.genericArgs.map((_, i) => argType(t, i));
    if (first) {
      stack.push([t, false]);
      for (const o of operands) stack.push([o, true]);
      continue;
    }
    const op =
      d.genericId === 'AddModGate'
        ? 'add'
        : d.genericId === 'SubModGate'
          ? 'sub'
          : d.genericId === 'MulModGate'
            ? 'mul'
            : d.genericId === 'InverseGate'
              ? 'inv'
              : undefined;
    if (!op) throw new SierraRunError(`circuit: ${d.genericId} is not a circuit component`);
    const a = slotOf.get(operands[0]!)!;
    const b = op === 'inv' ? a : slotOf.get(operands[1]!)!;
    const out = nInputs + gates.length;
    gates.push({ op, a, b, out });
    slotOf.set(t, out);
  }
  const plan = { nInputs, gates, slotOf };
  perProgram.set(circuitTy, plan);
  return plan;
}

/**
 * Evaluates a circuit modulo `m`: every value in `[0, m)`. Returns the values of all slots, or the first value an
 * inverse gate could not invert.
 */
export function evalCircuit(
  plan: CircuitPlan,
  inputs: readonly bigint[],
  m: bigint,
): bigint[] | { notInvertible: bigint } {
  const v: bigint[] = new Array(plan.nInputs + plan.gates.length);
  for (let i = 0; i < plan.nInputs; i++) v[i] = inputs[i]! % m;
  for (const g of plan.gates) {
    const x = v[g.a]!;
    const y = v[g.b]!;
    switch (g.op) {
      case 'add':
        v[g.out] = (x + y) % m;
        break;
      case 'sub':
        v[g.out] = x >= y ? x - y : x - y + m;
        break;
      case 'mul':
        v[g.out] = (x * y) % m;
        break;
      case 'inv': {
        const r = invMod(x, m);
        if (r === undefined) return { notInvertible: x };
        v[g.out] = r;
        break;
      }
    }
  }
  return v;
}

const gcd = (a: bigint, b: bigint): bigint => {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

/** `U96LimbsLtGuarantee<N>`: `[lhs limbs, rhs limbs]` with `lhs < rhs`, N limbs each, least significant first. */
const ltGuarantee = (lhs: bigint, rhs: bigint): Value => [toLimbs(lhs), toLimbs(rhs)];

const circuitOf = (d: Parameters<HandlerFactory>[0], env: LibfuncEnv): CircuitPlan =>
  circuitPlan(env.program, typeArg(d, 0));

const passFirst: LibfuncHandler = (a, out) => {
  out[0] = a[0]!;
  return 0;
};

/**
 * Handlers of the circuit libfuncs (`core::circuit`), evaluated directly on bigints:
 * - `CircuitModulus` is the modulus, `CircuitInputAccumulator` / `CircuitData` the inputs added so far (array of
 *   bigints), `CircuitDescriptor` null (the handler knows the circuit from its generic argument);
 * - `CircuitOutputs` is `[values of every slot, modulus]`; `CircuitPartialOutputs` the inputs;
 *   `CircuitFailureGuarantee` `[not invertible value, modulus]`;
 * - `U96Guarantee` the u96 value, `U96LimbsLtGuarantee<N>` `[lhs limbs, rhs limbs]` (see {@link ltGuarantee}).
 *
 * `eval_circuit` takes the failure branch when an inverse gate meets a value not invertible modulo the modulus.
 */
export const CIRCUIT_HANDLERS: Readonly<Record<string, HandlerFactory>> = {
  /** `[u96; 4]` → `CircuitModulus` when the value is at least 2. */
  try_into_circuit_modulus: () => (a, out) => {
    const m = fromLimbs(a[0]);
    if (m < 2n) return 1;
    out[0] = m;
    return 0;
  },
  init_circuit_data: (d, env) => {
    circuitOf(d, env);
    return (a, out) => {
      out[0] = a[0]!;
      out[1] = [];
      return 0;
    };
  },
  /** Branch 0: all inputs added (`CircuitData`); branch 1: more needed (the accumulator). */
  add_circuit_input: (d, env) => {
    const plan = circuitOf(d, env);
    return (a, out) => {
      const acc = a[0] as Value[];
      if (acc.length >= plan.nInputs) throw new SierraRunError('add_circuit_input: all inputs were already added');
      const next = [...acc, fromLimbs(a[1])];
      out[0] = next;
      return next.length === plan.nInputs ? 0 : 1;
    };
  },
  get_circuit_descriptor: (d, env) => {
    circuitOf(d, env);
    return (_a, out) => {
      out[0] = null;
      return 0;
    };
  },
  /** `(AddMod, MulMod, descriptor, data, modulus, 0, 1)` → ok `(AddMod, MulMod, outputs)` | err `(…, partial, guarantee)`. */
  eval_circuit: (d, env) => {
    const plan = circuitOf(d, env);
    return (a, out) => {
      const inputs = a[3] as bigint[];
      const m = big(a[4]);
      out[0] = a[0]!;
      out[1] = a[1]!;
      const r = evalCircuit(plan, inputs, m);
      if (Array.isArray(r)) {
        out[2] = [r, m];
        return 0;
      }
      out[2] = inputs;
      out[3] = [r.notInvertible, m];
      return 1;
    };
  },
  /** The output as a u384 and a guarantee that it is below the modulus. */
  get_circuit_output: (d, env) => {
    const plan = circuitOf(d, env);
    const slot = plan.slotOf.get(typeArg(d, 1));
    if (slot === undefined) throw new SierraRunError('get_circuit_output: the output is not part of the circuit');
    return (a, out) => {
      const [values, m] = a[0] as [bigint[], bigint];
      const v = values[slot]!;
      out[0] = toLimbs(v);
      out[1] = ltGuarantee(v, m);
      return 0;
    };
  },
  /**
   * `(RangeCheck96, MulMod, failure guarantee, 0, 1)` → `(RangeCheck96, MulMod, U96LimbsLtGuarantee<4>)`: the
   * witness `k = m / gcd(x, m)` (non-zero, below m, `x·k ≡ 0`) shows that x is not invertible.
   */
  circuit_failure_guarantee_verify: () => (a, out) => {
    const [x, m] = a[2] as [bigint, bigint];
    out[0] = a[0]!;
    out[1] = a[1]!;
    out[2] = ltGuarantee(m / gcd(x, m), m);
    return 0;
  },
  into_u96_guarantee: () => passFirst,
  u96_guarantee_verify: () => passFirst,
  /** Branch 0: the most significant limbs are equal (the guarantee on one limb less); branch 1: they differ. */
  u96_limbs_less_than_guarantee_verify: (d) => {
    const n = Number(valueArg(d, 0));
    if (n < 2) throw new SierraRunError('u96_limbs_less_than_guarantee_verify: needs at least 2 limbs');
    return (a, out) => {
      const [lhs, rhs] = a[0] as [bigint[], bigint[]];
      const top = n - 1;
      if (lhs[top] === rhs[top]) {
        out[0] = [lhs.slice(0, top), rhs.slice(0, top)];
        return 0;
      }
      out[0] = rhs[top]! - lhs[top]! - 1n;
      return 1;
    };
  },
  u96_single_limb_less_than_guarantee_verify: () => (a, out) => {
    const [lhs, rhs] = a[0] as [bigint[], bigint[]];
    out[0] = rhs[0]! - lhs[0]! - 1n;
    return 0;
  },
};
