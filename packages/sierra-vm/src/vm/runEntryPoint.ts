import { decodeSierraProgram } from '../decodeSierraProgram.js';
import { ENTRY_POINT_INITIAL_GAS } from './gasCosts.js';
import { longGenericIdsFromDebugInfo, type SierraDebugInfo } from '../longGenericIdsFromDebugInfo.js';
import type { SierraProgram, VersionId } from '../types.js';
import { isPanicResult } from './isPanicResult.js';
import { OUT_OF_GAS } from './libfuncs/syscall.js';
import { prepareProgram } from './prepareProgram.js';
import { runFunction } from './runFunction.js';
import { SierraRunError } from './SierraRunError.js';
import type { ArrayValue, EnumValue, PanicInfo, StarknetHost, Value } from './types.js';
import { unsupportedLibfuncs } from './unsupportedLibfuncs.js';

/** The table of a contract class an entry point is looked up in. */
export type EntryPointType = 'EXTERNAL' | 'CONSTRUCTOR' | 'L1_HANDLER';

/** One entry of a class's `entry_points_by_type`. */
export interface ContractEntryPoint {
  selector: string | bigint;
  function_idx: number;
}

/** The parts of a Sierra contract class (as `starknet_getClass` returns it, or a compiler's output) that run. */
export interface ContractClassInput {
  sierra_program: readonly (string | bigint)[];
  entry_points_by_type: {
    readonly EXTERNAL: readonly ContractEntryPoint[];
    readonly CONSTRUCTOR: readonly ContractEntryPoint[];
    readonly L1_HANDLER: readonly ContractEntryPoint[];
  };
  /** Used, when present, only for long generic ids the package does not list. */
  sierra_program_debug_info?: SierraDebugInfo;
}

/** A contract class decoded and prepared once, ready for {@link runEntryPoint}. */
export interface LoadedContractClass {
  readonly sierraVersion: VersionId;
  readonly compilerVersion: VersionId;
  readonly program: SierraProgram;
  /** Per entry point type: selector → user function id. */
  readonly entryPoints: Readonly<Record<EntryPointType, ReadonlyMap<bigint, number>>>;
  /** The generic libfuncs the program declares that the interpreter cannot run (see `unsupportedLibfuncs`). */
  readonly unsupportedLibfuncs: readonly string[];
}

/** Thrown by {@link runEntryPoint} when the class has no entry point of that type and selector. */
export class EntryPointNotFoundError extends SierraRunError {
  constructor(
    readonly entryPointType: EntryPointType,
    readonly selector: bigint,
  ) {
    super(`no ${entryPointType} entry point with selector 0x${selector.toString(16)}`);
    this.name = 'EntryPointNotFoundError';
  }
}

const cache = new Map<bigint, LoadedContractClass>();

/**
 * Decodes a contract class's program (throws `SierraDecodeError` when it is not a valid encoding), prepares it for
 * the interpreter and indexes its entry points. With `classHash`, the result is cached under that hash: later calls
 * with the same hash return the cached class without decoding (so a chain decodes a class once, at declare).
 */
export function loadContractClass(cls: ContractClassInput, classHash?: bigint): LoadedContractClass {
  if (classHash !== undefined) {
    const hit = cache.get(classHash);
    if (hit) return hit;
  }
  const decoded = decodeSierraProgram(
    cls.sierra_program,
    cls.sierra_program_debug_info ? { longGenericIds: longGenericIdsFromDebugInfo(cls.sierra_program_debug_info) } : {},
  );
  const { program } = decoded;
  const index = (eps: readonly ContractEntryPoint[]): Map<bigint, number> => {
    const m = new Map<bigint, number>();
    for (const e of eps) {
      if (!program.funcs[e.function_idx])
        throw new SierraRunError(`entry point ${String(e.selector)}: no function ${e.function_idx}`);
      m.set(BigInt(e.selector), e.function_idx);
    }
    return m;
  };
  const eps = cls.entry_points_by_type;
  const loaded: LoadedContractClass = {
    sierraVersion: decoded.sierraVersion,
    compilerVersion: decoded.compilerVersion,
    program,
    entryPoints: {
      EXTERNAL: index(eps.EXTERNAL),
      CONSTRUCTOR: index(eps.CONSTRUCTOR),
      L1_HANDLER: index(eps.L1_HANDLER),
    },
    unsupportedLibfuncs: unsupportedLibfuncs(program),
  };
  prepareProgram(program);
  if (classHash !== undefined) cache.set(classHash, loaded);
  return loaded;
}

/** The class cached by {@link loadContractClass} under `classHash`, if any. */
export function cachedContractClass(classHash: bigint): LoadedContractClass | undefined {
  return cache.get(classHash);
}

/** Options of {@link runEntryPoint}. */
export interface EntryPointOptions {
  /** Answers the syscalls of the executing contract. */
  host: StarknetHost;
  /**
   * Gas given to the entry point (default 10^9): `ENTRY_POINT_INITIAL_GAS` (10 000) is taken first, the rest is the
   * function's gas counter (see `RunOptions.availableGas` for the cost model).
   */
  availableGas?: bigint | number;
  /** Gas of one statement (default 100). */
  statementGasCost?: number;
  /** Statement limit (default 10^8). */
  maxSteps?: number;
}

/** The outcome of an entry point: its return data, or the panic with its data and decoded reason. */
export type EntryPointResult = (
  | { retdata: bigint[]; panic?: undefined }
  | { panic: PanicInfo; retdata?: undefined }
) & {
  /** Gas left when it returned. */
  gasLeft: bigint;
  /** Gas it consumed: the available gas less {@link gasLeft} (all of it when it ran out). */
  gasUsed: bigint;
  /** Statements executed (nested calls not counted). */
  steps: number;
};

/**
 * Runs an entry point of a loaded contract class, as the Starknet OS does: the entry point of type `type` and
 * selector `selector` is looked up in `entry_points_by_type`, its function is called with the builtins, the gas,
 * the System pointer and `calldata` as a `Span<felt252>`; the `PanicResult<(Span<felt252>,)>` it returns becomes
 * `{ retdata }` or `{ panic }` (panic data and its reading by `decodePanicData`, e.g. `['u256_sub Overflow']`).
 * Every syscall goes to `options.host`, synchronously (a host may call `runEntryPoint` again for nested calls).
 *
 * @throws {EntryPointNotFoundError} when the class has no such entry point
 * @throws {SierraRunError} on a libfunc the interpreter lacks being reached, the step limit, or a function whose
 * signature is not an entry point's
 */
export function runEntryPoint(
  cls: LoadedContractClass,
  type: EntryPointType,
  selector: bigint,
  calldata: readonly bigint[],
  options: EntryPointOptions,
): EntryPointResult {
  const fn = cls.entryPoints[type].get(selector);
  if (fn === undefined) throw new EntryPointNotFoundError(type, selector);
  const { registry } = prepareProgram(cls.program);
  const retTypes = cls.program.funcs[fn]!.signature.retTypes;
  const last = retTypes[retTypes.length - 1];
  if (last === undefined || !isPanicResult(registry, last))
    throw new SierraRunError(`function ${fn} is not an entry point: it does not return a PanicResult`);
  const available = BigInt(options.availableGas ?? 1_000_000_000);
  const initial = BigInt(ENTRY_POINT_INITIAL_GAS);
  if (available < initial) return { panic: outOfGas(), gasLeft: 0n, gasUsed: available, steps: 0 };
  const span: Value = [{ data: calldata.slice(), start: 0, end: calldata.length } satisfies ArrayValue];
  const r = runFunction(cls.program, fn, [span], {
    host: options.host,
    availableGas: available - initial,
    ...(options.statementGasCost !== undefined ? { statementGasCost: options.statementGasCost } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
  });
  const gasLeft = r.gasLeft ?? 0n;
  const gasUsed = available - gasLeft;
  // The statements since the last withdrawal could not be paid: the entry point ran out of gas.
  if (r.outOfGas) return { panic: r.panic ?? outOfGas(), gasLeft, gasUsed, steps: r.steps };
  if (r.panic) return { panic: r.panic, gasLeft, gasUsed, steps: r.steps };
  const ok = (r.values[r.values.length - 1] as EnumValue).value as Value[];
  const s = (ok[0] as Value[])[0] as ArrayValue;
  return { retdata: s.data.slice(s.start, s.end) as bigint[], gasLeft, gasUsed, steps: r.steps };
}

const outOfGas = (): PanicInfo => ({ data: [OUT_OF_GAS], messages: ['Out of gas'] });
