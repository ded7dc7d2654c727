import type { ConsensusRule } from '../../../config/types.js';

/** Whether `method` matches a rule's pattern (`*` matches any run of characters). */
export function methodMatches(pattern: string, method: string): boolean {
  if (!pattern.includes('*')) return pattern === method;
  const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`).test(method);
}

/**
 * The consensus rule of a network that applies to `method`: the one named exactly, else the
 * first whose pattern matches (in the config's order), else undefined.
 *
 * @example
 * consensusRuleFor(rules, 'eth_getBlockByNumber'); // the rule of `eth_getBlockBy*` (or of `*`)
 */
export function consensusRuleFor(rules: readonly ConsensusRule[], method: string): ConsensusRule | undefined {
  return rules.find((r) => r.methods === method) ?? rules.find((r) => methodMatches(r.methods, method));
}
