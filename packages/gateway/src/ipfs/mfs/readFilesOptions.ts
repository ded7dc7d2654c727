import { mfsRequestError } from './mfsError.js';
import type { UnixfsMtime } from './unixfsData.js';

/** An option of a `files/*` command: its type and Kubo's other names for it. */
export interface FilesOptionSpec {
  readonly type: 'bool' | 'int' | 'string';
  readonly aliases?: readonly string[];
}

/** The options of a `files/*` command, read as go-ipfs-cmds reads them. */
export interface FilesOptions {
  bool(name: string, fallback?: boolean): boolean;
  /** undefined when not given. */
  int(name: string): number | undefined;
  string(name: string): string | undefined;
  has(name: string): boolean;
}

// Go's strconv.ParseBool, plus the empty value (`?parents` is true)
const TRUE = new Set(['', '1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Every `files/*` command takes `flush` (`f`), default true. */
const GLOBAL: Readonly<Record<string, FilesOptionSpec>> = { flush: { type: 'bool', aliases: ['f'] } };

/**
 * Reads a command's options from the query (unknown parameters are ignored, as Kubo does): a
 * value given twice, under any of its names, or one that does not convert, is a 400 with Kubo's
 * message.
 *
 * @example
 * const o = readFilesOptions(params, { parents: { type: 'bool', aliases: ['p'] } });
 * o.bool('parents') // true for ?p, ?parents=true, ?p=1
 */
export function readFilesOptions(
  params: URLSearchParams,
  specs: Readonly<Record<string, FilesOptionSpec>>,
): FilesOptions {
  const values = new Map<string, boolean | number | string>();
  for (const [name, spec] of Object.entries({ ...GLOBAL, ...specs })) {
    const given = [name, ...(spec.aliases ?? [])].flatMap((n) => params.getAll(n));
    if (given.length === 0) continue;
    if (given.length > 1) {
      throw mfsRequestError(`expected key ${name} to have only a single value, received [${given.join(' ')}]`);
    }
    const raw = given[0]!;
    const fail = () =>
      mfsRequestError(`Could not convert value "${raw}" to type "${spec.type}" (for option "-${name}")`);
    if (spec.type === 'bool') {
      if (TRUE.has(raw)) values.set(name, true);
      else if (FALSE.has(raw)) values.set(name, false);
      else throw fail();
    } else if (spec.type === 'int') {
      if (!/^[+-]?\d{1,19}$/.test(raw)) throw fail();
      const n = Number(raw);
      if (!Number.isSafeInteger(n)) throw fail();
      values.set(name, n);
    } else values.set(name, raw);
  }
  return {
    bool: (name, fallback = false) => {
      const v = values.get(name);
      return typeof v === 'boolean' ? v : fallback;
    },
    int: (name) => {
      const v = values.get(name);
      return typeof v === 'number' ? v : undefined;
    },
    string: (name) => {
      const v = values.get(name);
      return typeof v === 'string' ? v : undefined;
    },
    has: (name) => values.has(name),
  };
}

/** The `mode`, `mtime` and `mtime-nsecs` options (mkdir, write, touch). */
export const METADATA_OPTIONS: Readonly<Record<string, FilesOptionSpec>> = {
  mode: { type: 'string' },
  mtime: { type: 'int' },
  'mtime-nsecs': { type: 'int' },
};

/**
 * The `mode` option as Kubo's option parser reads a number (a Go integer literal: `0644` and
 * `0o644` are octal, as kubo-rpc-client sends modes; `420` is decimal; `0x1a4` hex): its
 * permission bits (`& 0o7777`). 400 with Kubo's message for anything else.
 */
export function parseMode(text: string): number {
  const t = text.replaceAll('_', '');
  let n = Number.NaN;
  if (/^0[xX][0-9a-fA-F]{1,8}$/.test(t)) n = Number.parseInt(t.slice(2), 16);
  else if (/^0[oO][0-7]{1,11}$/.test(t)) n = Number.parseInt(t.slice(2), 8);
  else if (/^0[0-7]{0,11}$/.test(t)) n = Number.parseInt(t, 8);
  else if (/^[1-9][0-9]{0,9}$/.test(t)) n = Number(t);
  if (!Number.isSafeInteger(n) || n > 0xffffffff) {
    throw mfsRequestError(`Could not convert value "${text}" to type "uint" (for option "-mode")`);
  }
  return n & 0o7777;
}

/** The mode and mtime the options ask for (each undefined when not given). */
export function readMetadata(o: FilesOptions): { mode?: number | undefined; mtime?: UnixfsMtime | undefined } {
  const modeText = o.string('mode');
  const secs = o.int('mtime');
  const nsecs = o.int('mtime-nsecs');
  if (nsecs !== undefined && (nsecs < 0 || nsecs > 999_999_999)) {
    throw mfsRequestError('mtime-nsecs must be within the range [0,999999999]');
  }
  // as Kubo: a mode or an mtime of 0 stores none
  const mode = modeText === undefined ? undefined : parseMode(modeText);
  return {
    mode: mode === 0 ? undefined : mode,
    mtime: secs === undefined || secs === 0 ? undefined : { secs: BigInt(secs), nsecs: nsecs ?? 0 },
  };
}
