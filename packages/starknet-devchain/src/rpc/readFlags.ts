import { invalidParams } from '../errors.js';

/**
 * Reads an optional flags param (response_flags, trace_flags, simulation_flags): absent or null
 * is no flag; otherwise an array of the allowed names, anything else INVALID_PARAMS naming it.
 *
 * @example
 * readFlags(p.response_flags, 'response_flags', ['INCLUDE_PROOF_FACTS']).has('INCLUDE_PROOF_FACTS');
 */
export function readFlags(value: unknown, name: string, allowed: readonly string[]): ReadonlySet<string> {
  if (value === undefined || value === null) return new Set();
  if (!Array.isArray(value)) throw invalidParams(`${name}: expected an array of ${allowed.join(', ')}`);
  for (const f of value) {
    if (typeof f !== 'string' || !allowed.includes(f)) {
      throw invalidParams(`${name}: unknown flag ${JSON.stringify(f)} (expected ${allowed.join(', ')})`);
    }
  }
  return new Set(value as string[]);
}
