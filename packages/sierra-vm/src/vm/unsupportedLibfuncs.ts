import type { SierraProgram } from '../types.js';
import { findHandlerFactory, INTERPRETER_LIBFUNCS } from './findHandlerFactory.js';

/**
 * The generic libfunc ids a program declares that the interpreter has no handler for (sorted, each once).
 * A program whose list is empty may still fail on a handler rejecting unusual generic arguments.
 */
export function unsupportedLibfuncs(program: SierraProgram): string[] {
  const missing = new Set<string>();
  for (const d of program.libfuncDeclarations) {
    if (!INTERPRETER_LIBFUNCS.has(d.genericId) && !findHandlerFactory(d.genericId)) missing.add(d.genericId);
  }
  return [...missing].sort();
}
