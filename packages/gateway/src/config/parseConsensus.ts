import { ConfigError } from './ConfigError.js';
import type { ConsensusRule } from './types.js';

/** A method name or a pattern with `*`: what `consensus:` keys and `ignoreFields` keys may be. */
const PATTERN = /^[A-Za-z0-9_*]{1,64}$/;
/** A dotted field path, `*` for any key or index (`transactions.*.v`). */
const PATH = /^[A-Za-z0-9_*]{1,64}(\.[A-Za-z0-9_*]{1,64}){0,7}$/;
const DISPUTES = ['error', 'mostCommon', 'bestHead'] as const;

const int = (v: unknown, at: string, min: number, max: number): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new ConfigError(at, `must be an integer from ${min} to ${max}`);
  return v;
};
const object = (v: unknown, at: string): Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(at, 'must be an object');
  return v as Record<string, unknown>;
};

/**
 * Reads a network's `consensus:`: an object keyed by method pattern (`eth_getBalance`,
 * `eth_getBlockBy*`, `*`), each `{ participants, agree, ignoreFields?, onDispute?, sitOutAfter?,
 * sitOutMs? }`. `participants` is at most the network's upstreams (`upstreams`) and `agree` at
 * most `participants`; `onDispute` defaults to `error`, `sitOutAfter` to 3, `sitOutMs` to 60 s.
 * `ignoreFields` maps a method pattern to dotted paths (`*` for any key or index).
 *
 * @example
 * parseConsensus({ eth_getBalance: { participants: 3, agree: 2 } }, 'networks[0].consensus', 3);
 * // [{ methods: 'eth_getBalance', participants: 3, agree: 2, ignoreFields: {}, onDispute: 'error', sitOutAfter: 3, sitOutMs: 60000 }]
 */
export function parseConsensus(raw: unknown, at: string, upstreams: number): ConsensusRule[] {
  if (raw === undefined) return [];
  const rules: ConsensusRule[] = [];
  for (const [methods, value] of Object.entries(object(raw, at))) {
    const here = `${at}.${methods}`;
    if (!PATTERN.test(methods))
      throw new ConfigError(here, 'use a method name or a pattern with * (e.g. eth_getBlockBy*)');
    const r = object(value, here);
    for (const k of Object.keys(r)) {
      if (!['participants', 'agree', 'ignoreFields', 'onDispute', 'sitOutAfter', 'sitOutMs'].includes(k))
        throw new ConfigError(
          `${here}.${k}`,
          'unknown field (known: participants, agree, ignoreFields, onDispute, sitOutAfter, sitOutMs)',
        );
    }
    const participants = int(r.participants, `${here}.participants`, 2, 16);
    if (participants > upstreams)
      throw new ConfigError(`${here}.participants`, `is more than the network's ${upstreams} upstream(s)`);
    const agree = int(r.agree ?? Math.floor(participants / 2) + 1, `${here}.agree`, 1, participants);
    const onDispute = r.onDispute ?? 'error';
    if (!DISPUTES.includes(onDispute as (typeof DISPUTES)[number]))
      throw new ConfigError(`${here}.onDispute`, `must be one of ${DISPUTES.join(', ')}`);
    const ignoreFields: Record<string, string[]> = {};
    if (r.ignoreFields !== undefined) {
      for (const [pattern, paths] of Object.entries(object(r.ignoreFields, `${here}.ignoreFields`))) {
        const where = `${here}.ignoreFields.${pattern}`;
        if (!PATTERN.test(pattern)) throw new ConfigError(where, 'use a method name or a pattern with *');
        if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && PATH.test(p)))
          throw new ConfigError(where, 'must be a list of dotted field paths (e.g. ["timestamp", "transactions.*.v"])');
        ignoreFields[pattern] = paths as string[];
      }
    }
    rules.push({
      methods,
      participants,
      agree,
      ignoreFields,
      onDispute: onDispute as ConsensusRule['onDispute'],
      sitOutAfter: int(r.sitOutAfter ?? 3, `${here}.sitOutAfter`, 1, 1_000),
      sitOutMs: int(r.sitOutMs ?? 60_000, `${here}.sitOutMs`, 1_000, 86_400_000),
    });
  }
  return rules;
}
