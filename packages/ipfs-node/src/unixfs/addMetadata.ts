import type { Mtime } from 'ipfs-unixfs';
import type { CommandOptions } from '../commands/types.js';
import { IpfsNodeError } from '../errors.js';

/** The UnixFS 1.5 metadata options of `add`, as Kubo reads them. */
export interface AddMetadata {
  /** `mode`: stored on every entry (0: none). */
  readonly mode: number | undefined;
  /** `mtime` / `mtime-nsecs`: stored on every entry. */
  readonly mtime: Mtime | undefined;
  /** `preserve-mode`: store the mode each entry carries in the upload (its form field). */
  readonly preserveMode: boolean;
  /** `preserve-mtime`: store the mtime each entry carries in the upload. */
  readonly preserveMtime: boolean;
  /** Any of the above asked for: Kubo then needs dag-pb roots (no raw leaves). */
  readonly requested: boolean;
}

/**
 * Reads `mode` (a Go integer literal: `0644` is octal, as Kubo's option parser reads it),
 * `mtime` (seconds), `mtime-nsecs`, `preserve-mode` and `preserve-mtime`. Without them, the mode
 * and mtime a client sends per file are not stored (Kubo's behaviour: only reported back).
 *
 * @example
 * addMetadata(options) // { mode: 0o764, mtime: undefined, preserveMode: false, … }
 */
export function addMetadata(options: CommandOptions): AddMetadata {
  const modeText = options.string('mode');
  let mode: number | undefined;
  if (modeText !== undefined) {
    mode = parseGoUint(modeText);
    if (mode === undefined || mode > 0xffffffff) {
      throw new IpfsNodeError('request', `Could not convert value "${modeText}" to type "uint" (for option "-mode")`);
    }
    if (mode === 0) mode = undefined;
  }
  const secs = options.int('mtime');
  const nsecs = options.int('mtime-nsecs');
  if (nsecs !== undefined && (nsecs < 0 || nsecs > 999_999_999)) {
    throw new IpfsNodeError('client', 'mtime-nsecs must be in the range [0,999999999]');
  }
  let mtime: Mtime | undefined;
  // Kubo leaves a zero fraction out of the stored mtime
  if (secs !== undefined && secs !== 0) mtime = nsecs ? { secs: BigInt(secs), nsecs } : { secs: BigInt(secs) };
  else if (nsecs !== undefined && nsecs !== 0) {
    throw new IpfsNodeError('command', 'option "mtime-nsecs" requires "mtime" to be provided as well');
  }
  const preserveMode = options.bool('preserve-mode');
  const preserveMtime = options.bool('preserve-mtime');
  return {
    mode,
    mtime,
    preserveMode,
    preserveMtime,
    requested: preserveMode || preserveMtime || mode !== undefined || mtime !== undefined,
  };
}

/** Go's `strconv.ParseUint(s, 0, 64)` for the literals that matter: `0x…`, `0o…`, `0…` (octal), decimal. */
function parseGoUint(text: string): number | undefined {
  const t = text.replaceAll('_', '');
  let n: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(t)) n = Number.parseInt(t.slice(2), 16);
  else if (/^0[oO][0-7]+$/.test(t)) n = Number.parseInt(t.slice(2), 8);
  else if (/^0[0-7]*$/.test(t)) n = Number.parseInt(t, 8);
  else if (/^[1-9][0-9]*$/.test(t)) n = Number(t);
  else return undefined;
  return Number.isSafeInteger(n) ? n : undefined;
}
