import * as dagPb from '@ipld/dag-pb';
import { type BlockPrefix, hashCodeOf } from './blockPrefix.js';
import { mfsError } from './mfsError.js';
import type { FilesOptions, FilesOptionSpec } from './readFilesOptions.js';

/** The `cid-version` (`cid-ver`) and `hash` options of mkdir, write and chcid. */
export const CID_OPTIONS: Readonly<Record<string, FilesOptionSpec>> = {
  'cid-version': { type: 'int', aliases: ['cid-ver'] },
  hash: { type: 'string' },
};

/**
 * The CID prefix `cid-version` and `hash` ask for, as Kubo reads them (`getPrefixNew`): undefined
 * when neither is given; a hash function implies CIDv1; only versions 0 and 1 exist.
 *
 * @example
 * readCidPrefix(readFilesOptions(new URLSearchParams('hash=sha2-512'), CID_OPTIONS)) // { version: 1, codec: 0x70, hash: 0x13 }
 */
export function readCidPrefix(o: FilesOptions): BlockPrefix | undefined {
  const version = o.int('cid-version');
  const hashName = o.string('hash');
  if (version === undefined && hashName === undefined) return undefined;
  const v = hashName !== undefined && (version ?? 0) === 0 ? 1 : (version ?? 0);
  if (v !== 0 && v !== 1) throw mfsError(`unknown CID version: ${v}`);
  const hash = hashName === undefined ? 0x12 : hashCodeOf(hashName);
  return { version: v, codec: dagPb.code, hash };
}
