import type { CommandOptions, OptionSpec } from '../commands/types.js';
import { IpfsNodeError } from '../errors.js';

/** Options every command accepts (Kubo's global options). */
export const globalOptions: Readonly<Record<string, OptionSpec>> = {
  encoding: { type: 'string', default: 'json' },
  'stream-channels': { type: 'bool', default: false },
  timeout: { type: 'string' },
  'cid-base': { type: 'string' },
  'upgrade-cidv0-in-output': { type: 'bool', default: false },
  offline: { type: 'bool', default: true },
};

const TRUE = new Set(['', '1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * Converts query parameters to typed option values as Kubo does: unknown parameters are
 * ignored, a value that does not convert is a request error (400 text).
 */
export function parseOptions(query: URLSearchParams, specs: Readonly<Record<string, OptionSpec>>): CommandOptions {
  const all = { ...globalOptions, ...specs };
  const values = new Map<string, boolean | number | string>();
  for (const [name, spec] of Object.entries(all)) {
    const given = query.getAll(name);
    if (given.length > 1) {
      throw new IpfsNodeError(
        'request',
        `expected key ${name} to have only a single value, received [${given.join(' ')}]`,
      );
    }
    const raw = given[0];
    if (raw === undefined) {
      if (spec.default !== undefined) values.set(name, spec.default);
      continue;
    }
    values.set(name, convert(name, spec, raw));
  }
  return {
    bool: (name) => values.get(name) === true,
    int: (name) => {
      const v = values.get(name);
      return typeof v === 'number' ? v : undefined;
    },
    string: (name) => {
      const v = values.get(name);
      return typeof v === 'string' ? v : undefined;
    },
    has: (name) => query.has(name),
  };
}

function convert(name: string, spec: OptionSpec, raw: string): boolean | number | string {
  const fail = () =>
    new IpfsNodeError('request', `Could not convert value "${raw}" to type "${spec.type}" (for option "-${name}")`);
  switch (spec.type) {
    case 'bool':
      if (TRUE.has(raw)) return true;
      if (FALSE.has(raw)) return false;
      throw fail();
    case 'int': {
      if (!/^[+-]?\d+$/.test(raw)) throw fail();
      const n = Number(raw);
      if (!Number.isSafeInteger(n)) throw fail();
      return n;
    }
    case 'string':
      return raw;
  }
}

/** Parses a Go duration (`300ms`, `1m30s`, `2h`); undefined for an invalid one. */
export function parseDuration(text: string): number | undefined {
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    total += Number(m[1]) * units[m[2]!]!;
    matched = re.lastIndex;
  }
  return matched === text.length && text.length > 0 ? total : undefined;
}
