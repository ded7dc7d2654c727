import type { SierraProgram } from '../types.js';
import { decodePanicData } from './decodePanicData.js';
import { isPanicResult } from './isPanicResult.js';
import { prepareProgram } from './prepareProgram.js';
import { runLoop } from './runLoop.js';
import { SierraRunError } from './SierraRunError.js';
import type { ArrayValue, EnumValue, PanicInfo, RunContext, RunOptions, RunResult, Value } from './types.js';

/** A function id, or a name: exact, else the one name ending in `::name` (ambiguous suffixes are refused). */
const resolveFunction = (program: SierraProgram, fn: number | string, options: RunOptions): number => {
  if (typeof fn === 'number') {
    if (!program.funcs[fn]) throw new SierraRunError(`no function ${fn}`);
    return fn;
  }
  const names = [...(options.funcNames ?? [])];
  const exact = names.find(([, name]) => name === fn);
  if (exact) return exact[0];
  const suffix = names.filter(([, name]) => name.endsWith(`::${fn}`));
  if (suffix.length === 1) return suffix[0]![0];
  if (suffix.length > 1)
    throw new SierraRunError(`function name ${fn} is ambiguous: ${suffix.map((n) => n[1]).join(', ')}`);
  throw new SierraRunError(`no function named ${fn} (pass funcNames)`);
};

/**
 * Runs a user function of a Sierra program and returns what it returns.
 *
 * `args` are the values of the function's parameters other than builtins and gas, in order; the interpreter
 * passes builtins (RangeCheck, Bitwise, System…) as `null` and `options.availableGas` as the `GasBuiltin`. Each
 * statement is an invocation whose handler consumes its argument variables and binds the results of the branch it
 * takes, or a `return`; `function_call` pushes a frame with its own variables. If the function returns a
 * `PanicResult` whose variant is `Err`, `panic` holds the panic data and its short strings.
 *
 * Throws `SierraRunError` on an unsupported libfunc reached, bad arguments, or more than `options.maxSteps`
 * statements. Gas: see {@link RunOptions.availableGas}; `gasLeft` is the returned counter less the gas of the
 * statements run since the last settlement, and `outOfGas` is set when it could not pay them.
 */
export function runFunction(
  program: SierraProgram,
  fn: number | string,
  args: readonly Value[],
  options: RunOptions = {},
): RunResult {
  const prepared = prepareProgram(program);
  const { registry } = prepared;
  const funcId = resolveFunction(program, fn, options);
  const func = program.funcs[funcId]!;
  const gas = BigInt(options.availableGas ?? 1_000_000_000);
  const ctx: RunContext = {
    ...(options.statementGasCost !== undefined ? { statementGasCost: options.statementGasCost } : {}),
    storage: options.storage ?? new Map(),
    events: [],
    executionInfo: options.executionInfo ?? {},
    messages: [],
    replacedClasses: [],
    ...(options.callContract ? { callContract: options.callContract } : {}),
    ...(options.host ? { host: options.host } : {}),
  };
  const maxSteps = options.maxSteps ?? 100_000_000;

  const vars: Value[] = [];
  let next = 0;
  for (const p of func.params) {
    const k = registry.get(p.ty).info.kind;
    if (k === 'gas') vars[p.id] = gas;
    else if (k === 'builtin') vars[p.id] = null;
    else {
      if (next >= args.length) throw new SierraRunError(`too few arguments: ${args.length}`);
      vars[p.id] = args[next++]!;
    }
  }
  if (next !== args.length) throw new SierraRunError(`too many arguments: ${args.length}, expected ${next}`);

  const { returned, steps, unsettledGas } = runLoop(program, funcId, vars, ctx, maxSteps, prepared);

  const retTypes = func.signature.retTypes;
  const result: RunResult = {
    returnValues: returned,
    values: [],
    valueTypes: [],
    steps,
    events: ctx.events,
    messages: ctx.messages,
    replacedClasses: ctx.replacedClasses,
  };
  retTypes.forEach((ty, i) => {
    const k = registry.get(ty).info.kind;
    const v = returned[i]!;
    if (k === 'gas') {
      // The statements run since the last settlement are paid from the returned counter.
      const counter = v as bigint;
      const due = BigInt(unsettledGas);
      if (counter >= due) result.gasLeft = counter - due;
      else {
        result.gasLeft = 0n;
        result.outOfGas = true;
      }
    } else if (k !== 'builtin') {
      result.values.push(v);
      result.valueTypes.push(ty);
    }
  });
  const last = retTypes.length - 1;
  if (last >= 0 && isPanicResult(registry, retTypes[last]!)) {
    const e = returned[last] as EnumValue;
    if (e.tag === 1) {
      const arr = (e.value as Value[])[1] as ArrayValue;
      const data = arr.data.slice(arr.start, arr.end) as bigint[];
      const panic: PanicInfo = { data, messages: decodePanicData(data) };
      result.panic = panic;
    }
  }
  return result;
}
