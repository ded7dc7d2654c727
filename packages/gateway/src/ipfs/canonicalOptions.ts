import { IpfsCommandError } from './IpfsCommandError.js';

/** An option the gateway decides on, with Kubo's other names for it. */
interface DecidingOption {
  readonly kind: 'bool' | 'string';
  readonly aliases: readonly string[];
}

const bool = (...aliases: string[]): DecidingOption => ({ kind: 'bool', aliases });
const str = (...aliases: string[]): DecidingOption => ({ kind: 'string', aliases });

/** The options whose value changes what the gateway records or answers, per command. */
const DECIDING: Readonly<Record<string, Readonly<Record<string, DecidingOption>>>> = {
  add: { pin: bool(), 'only-hash': bool('n'), 'wrap-with-directory': bool('w'), silent: bool(), quieter: bool('Q') },
  'block/put': { pin: bool() },
  'dag/put': { pin: bool() },
  'dag/import': { 'pin-roots': bool(), silent: bool() },
  'object/put': { pin: bool() },
  'pin/add': { recursive: bool('r') },
  'pin/rm': { recursive: bool('r') },
  'pin/update': { unpin: bool() },
  'pin/ls': { type: str('t'), stream: bool('s') },
};

// Go's strconv.ParseBool, plus the empty value (`?pin` is true), as go-ipfs-cmds reads options
const TRUE = new Set(['', '1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * Rewrites, in place, the options of `command` that the gateway decides on to one canonical
 * spelling (long name; booleans as `true`/`false`), so the gateway and the upstream read the
 * same value: `dag/put?pin=1` or `add?Q` must not pin or hide roots unseen. A value given twice
 * (under any of its names) or a boolean that does not convert is refused with 400, as Kubo does.
 *
 * @example
 * const params = new URLSearchParams('pin=1&n');
 * canonicalOptions('add', params); // params: 'pin=true&only-hash=true'
 */
export function canonicalOptions(command: string, params: URLSearchParams): void {
  const options = DECIDING[command];
  if (options === undefined) return;
  for (const [name, option] of Object.entries(options)) {
    const names = [name, ...option.aliases];
    const given = names.flatMap((n) => params.getAll(n));
    if (given.length === 0) continue;
    if (given.length > 1) {
      throw new IpfsCommandError(
        400,
        `expected key ${name} to have only a single value, received [${given.join(' ')}]`,
        1,
      );
    }
    const raw = given[0]!;
    let value = raw;
    if (option.kind === 'bool') {
      if (TRUE.has(raw)) value = 'true';
      else if (FALSE.has(raw)) value = 'false';
      else
        throw new IpfsCommandError(400, `Could not convert value "${raw}" to type "bool" (for option "-${name}")`, 1);
    }
    for (const n of names) params.delete(n);
    params.set(name, value);
  }
}
