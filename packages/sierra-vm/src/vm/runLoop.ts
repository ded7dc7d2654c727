import type { SierraProgram } from '../types.js';
import { libfuncBuiltinGas, STATEMENT_GAS } from './gasCosts.js';
import { type PreparedProgram, prepareProgram } from './prepareProgram.js';
import { SierraRunError } from './SierraRunError.js';
import type { EnumValue, LibfuncHandler, RunContext, Value } from './types.js';
import { newRunContext } from './newRunContext.js';

// What a statement does, decided once per program.
/** `return(vars)`. */
const RETURN = 0;
/** `function_call<f>`: a new frame. */
const CALL = 1;
/** Any libfunc: through its handler. */
const HANDLER = 2;
/** One output equal to one argument (`store_temp`, `rename`, `into_box`, `store_local`'s value…). */
const MOVE_OP = 3;
/** Two outputs equal to the argument (`dup`, `snapshot_take`). */
const DUP_OP = 4;
/** No output, one branch (`drop`, `branch_align`, `jump`, ap tracking, `finalize_locals`). */
const NOP_OP = 5;
/** One output, a constant (`const_as_immediate`, `felt252_const`, `u8_const`…). */
const CONST_OP = 6;
/** `enum_match` (also snapshot / boxed): the branch of the variant, binding its value. */
const MATCH_OP = 7;
/** `struct_deconstruct` (also snapshot / boxed): the members. */
const DECONSTRUCT_OP = 8;
/** `struct_construct`: a new struct of the arguments. */
const CONSTRUCT_OP = 9;
/**
 * A `function_call` whose next statement returns exactly the call's results (the compiler's loops are such tail
 * calls): the callee takes over the current frame and returns straight to its caller; the skipped `return` is
 * still counted as a statement (when the frame returns), so step counts equal {@link CALL}'s.
 */
const TAIL_CALL = 10;
/**
 * `withdraw_gas` / `withdraw_gas_all` `(range_check, gas[, costs])`: settles the gas of the statements run since the
 * last settlement from the counter (branch 0), or leaves it and takes branch 1 when the counter cannot pay.
 */
const WITHDRAW_OP = 11;
type Op = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11;

const MOVE = new Set([
  'store_temp',
  'rename',
  'into_box',
  'unbox',
  'local_into_box',
  'box_forward_snapshot',
  'unwrap_non_zero',
  'nullable_forward_snapshot',
  'nullable_from_box',
  'into_u96_guarantee',
  'bounded_int_wrap_non_zero',
]);
const DUP = new Set(['dup', 'snapshot_take']);
const NOP = new Set([
  'drop',
  'branch_align',
  'jump',
  'disable_ap_tracking',
  'enable_ap_tracking',
  'revoke_ap_tracking',
  'finalize_locals',
]);
const MATCH = new Set(['enum_match', 'enum_snapshot_match', 'enum_boxed_match']);
const DECONSTRUCT = new Set(['struct_deconstruct', 'struct_snapshot_deconstruct', 'struct_boxed_deconstruct']);
const CONST =
  /^(const_as_immediate|felt252_const|[ui](8|16|32|64|128)_const|(contract_address|class_hash|storage_base_address|bytes31)_const)$/;

/** One statement, flattened; every statement has the same shape (monomorphic field access in the loop). */
class Step {
  constructor(
    readonly op: Op,
    readonly handler: LibfuncHandler | null,
    /** Argument variable ids (for `return`, the returned ones). */
    readonly args: number[],
    /** Per branch: next statement and the variable ids bound to the outputs. */
    readonly next: number[],
    readonly results: number[][],
    /** Move / Dup: the source variable; Call: the callee's function id. */
    readonly src: number,
    /** Move / Const: the output variable; Dup: the first output. */
    readonly dst: number,
    /** Dup: the second output. */
    readonly dst2: number,
    readonly constant: Value,
    /** Call: the callee's parameter variable ids and entry statement. */
    readonly params: number[],
    readonly entry: number,
    /** The builtin gas this statement adds (`libfuncBuiltinGas`), for handlers and withdrawals. */
    readonly gas: number,
    /** A syscall: the variable of the gas counter it takes (settled before the call); else -1. */
    readonly gasArg: number,
  ) {}
}

const EMPTY = [] as number[];
const cache = new WeakMap<SierraProgram, Step[]>();

function flatten(program: SierraProgram, prepared: PreparedProgram): Step[] {
  const cached = cache.get(program);
  if (cached) return cached;
  const ctx = newRunContext();
  const constants = new Map<number, Value | undefined>();
  const steps = prepared.statements.map((st, index): Step => {
    if (st.kind === 'return') {
      return new Step(RETURN, null, Array.from(st.vars), EMPTY, [], -1, -1, -1, null, EMPTY, -1, 0, -1);
    }
    const s = program.statements[index]!;
    const genericId = s.kind === 'invocation' ? program.libfuncDeclarations[s.libfuncId]!.genericId : '';
    const args = Array.from(st.args);
    const next = Array.from(st.branches.map((b) => b.next));
    const results = st.branches.map((b) => Array.from(b.results));
    const one = st.branches.length === 1 ? results[0]! : undefined;
    if (st.callee >= 0) {
      const f = program.funcs[st.callee]!;
      if (f.params.length !== args.length) {
        throw new SierraRunError(`statement ${index}: ${args.length} arguments for ${f.params.length} parameters`);
      }
      const params = Array.from(f.params.map((p) => p.id));
      const after = prepared.statements[next[0]!];
      const r = results[0]!;
      const tail = after?.kind === 'return' && after.vars.length === r.length && after.vars.every((v, i) => v === r[i]);
      return new Step(
        tail ? TAIL_CALL : CALL,
        null,
        args,
        next,
        results,
        st.callee,
        -1,
        -1,
        null,
        params,
        f.entryPoint,
        0,
        -1,
      );
    }
    const gas = libfuncBuiltinGas(genericId);
    const gasArg = genericId.endsWith('_syscall') && args.length > 0 ? args[0]! : -1;
    const step = (op: Op, src: number, dst: number, dst2: number, constant: Value = null) =>
      new Step(op, st.handler, args, next, results, src, dst, dst2, constant, EMPTY, -1, gas, gasArg);
    if (
      (genericId === 'withdraw_gas' || genericId === 'withdraw_gas_all') &&
      args.length >= 2 &&
      results.length === 2 &&
      results.every((r) => r.length === 2)
    ) {
      return step(WITHDRAW_OP, -1, -1, -1);
    }
    if (one && MOVE.has(genericId) && args.length === 1 && one.length === 1)
      return step(MOVE_OP, args[0]!, one[0]!, -1);
    if (one && genericId === 'store_local' && args.length === 2 && one.length === 1) {
      return step(MOVE_OP, args[1]!, one[0]!, -1);
    }
    if (one && DUP.has(genericId) && args.length === 1 && one.length === 2) {
      return step(DUP_OP, args[0]!, one[0]!, one[1]!);
    }
    if (one && NOP.has(genericId) && one.length === 0) return step(NOP_OP, -1, -1, -1);
    if (MATCH.has(genericId) && args.length === 1 && results.every((r) => r.length === 1)) {
      return step(MATCH_OP, args[0]!, -1, -1);
    }
    if (one && DECONSTRUCT.has(genericId) && args.length === 1) return step(DECONSTRUCT_OP, args[0]!, -1, -1);
    if (one && genericId === 'struct_construct' && one.length === 1) return step(CONSTRUCT_OP, -1, one[0]!, -1);
    if (one && s.kind === 'invocation' && CONST.test(genericId) && args.length === 0 && one.length === 1) {
      // The constant, computed once by its handler (a handler that throws is left to throw when reached).
      let v = constants.get(s.libfuncId);
      if (!constants.has(s.libfuncId)) {
        const out: Value[] = [];
        try {
          v = st.handler([], out, ctx) === 0 ? out[0] : undefined;
        } catch {
          v = undefined;
        }
        constants.set(s.libfuncId, v);
      }
      if (v !== undefined) return step(CONST_OP, -1, one[0]!, -1, v);
    }
    return step(HANDLER, -1, -1, -1);
  });
  cache.set(program, steps);
  return steps;
}

/** The values a function returned and the number of statements run. */
export interface LoopResult {
  returned: Value[];
  steps: number;
  /**
   * The gas of the statements run since the last settlement (statements × `statementGasCost` + builtin gas), not yet
   * taken from the gas counter: the caller takes it from the returned counter.
   */
  unsettledGas: number;
}

/**
 * Runs a user function from its entry statement until it returns, on the variables `vars` (its parameters bound;
 * the array becomes the function's frame and is written to). This is the interpreter's inner loop: moves, copies,
 * drops, jumps, constants, enum matches and struct (de)construction are done inline; other libfuncs through their
 * handler, with argument buffers (one per argument count) and an output buffer reused across statements; frames are
 * kept in parallel stacks and each depth's variable array is reused by the next call at that depth. Nothing is
 * allocated per statement by the loop itself (handlers and struct_construct allocate the values they create; arrays
 * grow when first used).
 *
 * Gas: every statement costs `ctx.statementGasCost` (default 100) plus its libfunc's builtin gas; the loop keeps
 * that account in plain numbers and settles it from the gas counter at each `withdraw_gas` (taking its failure branch
 * when the counter cannot pay) and before each syscall (which then takes its own cost from the counter); what is left
 * unsettled at the return is reported as `unsettledGas`.
 *
 * Throws `SierraRunError` on an unsupported libfunc reached, a branch that does not exist, or more than
 * `maxSteps` statements.
 */
export function runLoop(
  program: SierraProgram,
  funcId: number,
  vars: Value[],
  ctx: RunContext,
  maxSteps: number,
  prepared: PreparedProgram = prepareProgram(program),
): LoopResult {
  const code = flatten(program, prepared);
  const func = program.funcs[funcId];
  if (!func) throw new SierraRunError(`no function ${funcId}`);
  const argBuffers: Value[][] = [];
  for (let n = 0; n <= 16; n++) argBuffers.push(new Array<Value>(n).fill(null));
  const out: Value[] = new Array<Value>(16).fill(null);
  const frameVars: Value[][] = [];
  const frameNext: number[] = [];
  const frameResults: number[][] = [];
  const pool: Value[][] = [vars];
  /** Per depth: the `return` statements skipped by tail calls in that frame, counted when it returns. */
  const skipped: number[] = [0];
  const tailArgs: Value[] = [];
  let depth = 0;
  let pc = func.entryPoint;
  let steps = 0;
  const statementGas = ctx.statementGasCost ?? STATEMENT_GAS;
  /** The statements already paid from the counter, and the builtin gas of those run since. */
  let settledSteps = 0;
  let builtinGas = 0;
  for (;;) {
    if (++steps > maxSteps) throw new SierraRunError(`step limit ${maxSteps} reached at statement ${pc}`);
    const st = code[pc];
    if (st === undefined) throw new SierraRunError(`no statement ${pc}`);
    switch (st.op) {
      case MOVE_OP:
        vars[st.dst] = vars[st.src]!;
        pc = st.next[0]!;
        break;
      case NOP_OP:
        pc = st.next[0]!;
        break;
      case DUP_OP: {
        const v = vars[st.src]!;
        vars[st.dst] = v;
        vars[st.dst2] = v;
        pc = st.next[0]!;
        break;
      }
      case CONST_OP:
        vars[st.dst] = st.constant;
        pc = st.next[0]!;
        break;
      case MATCH_OP: {
        const e = vars[st.src] as EnumValue;
        const tag = e.tag;
        const r = st.results[tag];
        if (r === undefined) throw new SierraRunError(`statement ${pc}: branch ${tag} does not exist`);
        vars[r[0]!] = e.value;
        pc = st.next[tag]!;
        break;
      }
      case DECONSTRUCT_OP: {
        const members = vars[st.src] as Value[];
        const r = st.results[0]!;
        for (let i = 0; i < r.length; i++) vars[r[i]!] = members[i]!;
        pc = st.next[0]!;
        break;
      }
      case CONSTRUCT_OP: {
        const args = st.args;
        const members: Value[] = [];
        for (let i = 0; i < args.length; i++) members.push(vars[args[i]!]!);
        vars[st.dst] = members;
        pc = st.next[0]!;
        break;
      }
      case WITHDRAW_OP: {
        const args = st.args;
        const counter = vars[args[1]!] as bigint;
        builtinGas += st.gas;
        const due = BigInt((steps - settledSteps) * statementGas + builtinGas);
        const branch = counter >= due ? 0 : 1;
        const r = st.results[branch]!;
        const rangeCheck = vars[args[0]!]!;
        if (branch === 0) {
          settledSteps = steps;
          builtinGas = 0;
          vars[r[1]!] = counter - due;
        } else vars[r[1]!] = counter;
        vars[r[0]!] = rangeCheck;
        pc = st.next[branch]!;
        break;
      }
      case HANDLER: {
        const args = st.args;
        const n = args.length;
        builtinGas += st.gas;
        if (st.gasArg >= 0) {
          // A syscall: settle first, so that its cost and a nested call's budget come from what is really left.
          const counter = vars[st.gasArg] as bigint;
          const due = BigInt((steps - settledSteps) * statementGas + builtinGas);
          if (counter >= due) {
            vars[st.gasArg] = counter - due;
            settledSteps = steps;
            builtinGas = 0;
          }
        }
        let a = argBuffers[n];
        if (a === undefined) {
          a = new Array<Value>(n).fill(null);
          argBuffers[n] = a;
        }
        for (let i = 0; i < n; i++) a[i] = vars[args[i]!]!;
        const branch = st.handler!(a, out, ctx);
        const r = st.results[branch];
        if (r === undefined) throw new SierraRunError(`statement ${pc}: branch ${branch} does not exist`);
        for (let i = 0; i < r.length; i++) vars[r[i]!] = out[i]!;
        pc = st.next[branch]!;
        break;
      }
      case CALL: {
        frameVars[depth] = vars;
        frameNext[depth] = st.next[0]!;
        frameResults[depth] = st.results[0]!;
        depth++;
        skipped[depth] = 0;
        let callee = pool[depth];
        if (callee === undefined) {
          callee = [];
          pool[depth] = callee;
        }
        const args = st.args;
        const params = st.params;
        for (let i = 0; i < args.length; i++) callee[params[i]!] = vars[args[i]!]!;
        vars = callee;
        pc = st.entry;
        break;
      }
      case TAIL_CALL: {
        const args = st.args;
        const params = st.params;
        for (let i = 0; i < args.length; i++) tailArgs[i] = vars[args[i]!]!;
        for (let i = 0; i < args.length; i++) vars[params[i]!] = tailArgs[i]!;
        skipped[depth]!++;
        pc = st.entry;
        break;
      }
      case RETURN: {
        const rv = st.args;
        const s = skipped[depth]!;
        if (s > 0) {
          steps += s;
          skipped[depth] = 0;
          if (steps > maxSteps) throw new SierraRunError(`step limit ${maxSteps} reached at statement ${pc}`);
        }
        if (depth === 0) {
          const returned: Value[] = [];
          for (let i = 0; i < rv.length; i++) returned.push(vars[rv[i]!]!);
          const unsettledGas = (steps - settledSteps) * statementGas + builtinGas;
          return { returned, steps, unsettledGas };
        }
        depth--;
        const caller = frameVars[depth]!;
        const r = frameResults[depth]!;
        for (let i = 0; i < r.length; i++) caller[r[i]!] = vars[rv[i]!]!;
        vars = caller;
        pc = frameNext[depth]!;
        break;
      }
    }
  }
}
