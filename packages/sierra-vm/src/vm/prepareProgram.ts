import type { SierraProgram } from '../types.js';
import { buildTypeRegistry } from './buildTypeRegistry.js';
import { checkProgramStructure } from './checkProgramStructure.js';
import { findHandlerFactory } from './findHandlerFactory.js';
import { SierraRunError } from './SierraRunError.js';
import type { LibfuncHandler, TypeRegistry } from './types.js';

/** A statement resolved once: its handler (or the called function), argument ids and branch targets. */
export type PreparedStatement =
  | { kind: 'return'; vars: number[] }
  | {
      kind: 'invoke';
      handler: LibfuncHandler;
      args: number[];
      /** Per branch: the next statement index and the variable ids bound to the handler's outputs. */
      branches: { next: number; results: number[] }[];
      /** For `function_call`: the callee's function id (the handler is then unused). */
      callee: number;
    };

/** A program ready to run: its type registry and its statements with resolved handlers. */
export interface PreparedProgram {
  registry: TypeRegistry;
  statements: PreparedStatement[];
}

const cache = new WeakMap<SierraProgram, PreparedProgram>();

/**
 * Resolves every statement of a program to its libfunc handler (once per concrete libfunc; cached per program
 * object). A libfunc without handler, or whose generic arguments the handler rejects, gets a handler that throws
 * `SierraRunError` when reached, so paths avoiding it still run. A program that is not well formed (see
 * {@link checkProgramStructure}: branch targets or entries outside it, undeclared libfuncs or functions) throws
 * `SierraRunError` at once.
 */
export function prepareProgram(program: SierraProgram): PreparedProgram {
  const cached = cache.get(program);
  if (cached) return cached;
  const problems = checkProgramStructure(program);
  if (problems.length > 0) throw new SierraRunError(`malformed program: ${problems.join('; ')}`);
  const registry = buildTypeRegistry(program);
  const env = { program, registry };
  const handlers: LibfuncHandler[] = [];
  const callees: number[] = [];
  for (const decl of program.libfuncDeclarations) {
    let callee = -1;
    let handler: LibfuncHandler;
    const fail =
      (message: string): LibfuncHandler =>
      () => {
        throw new SierraRunError(message);
      };
    if (decl.genericId === 'function_call' || decl.genericId === 'coupon_call') {
      const a = decl.genericArgs[0];
      if (a?.kind !== 'userFunc') throw new SierraRunError(`libfunc ${decl.id}: ${decl.genericId} without a function`);
      callee = a.id;
      handler = fail(`${decl.genericId} is run by the interpreter`);
    } else {
      const factory = findHandlerFactory(decl.genericId);
      if (!factory) handler = fail(`unsupported libfunc ${decl.genericId} (libfunc ${decl.id})`);
      else {
        try {
          handler = factory(decl, env);
        } catch (e) {
          handler = fail(`libfunc ${decl.id} (${decl.genericId}): ${(e as Error).message}`);
        }
      }
    }
    handlers.push(handler);
    callees.push(callee);
  }
  const statements = program.statements.map((s, index): PreparedStatement => {
    if (s.kind === 'return') return { kind: 'return', vars: s.vars };
    const handler = handlers[s.libfuncId];
    if (!handler) throw new SierraRunError(`statement ${index}: libfunc ${s.libfuncId} is not declared`);
    const callee = callees[s.libfuncId]!;
    // `coupon_call` passes the function's arguments then the (zero-sized) coupon, which the callee does not take.
    const couponCall = callee >= 0 && program.libfuncDeclarations[s.libfuncId]!.genericId === 'coupon_call';
    return {
      kind: 'invoke',
      handler,
      args: couponCall ? s.args.slice(0, -1) : s.args,
      branches: s.branches.map((b) => ({
        next: b.target === 'fallthrough' ? index + 1 : b.target,
        results: b.results,
      })),
      callee,
    };
  });
  const prepared = { registry, statements };
  cache.set(program, prepared);
  return prepared;
}
