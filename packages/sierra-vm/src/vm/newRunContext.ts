import type { RunContext } from './types.js';

/**
 * A run context with nothing in it yet: empty storage, no events, messages or replaced classes, no execution info,
 * no host, the default statement gas. For runs of single statements or functions outside `runFunction` (which builds
 * its own from its options).
 *
 * @example
 * const ctx = newRunContext();
 * runLoop(program, funcId, vars, ctx, 1_000_000);
 */
export function newRunContext(): RunContext {
  return { storage: new Map(), events: [], executionInfo: {}, messages: [], replacedClasses: [] };
}
