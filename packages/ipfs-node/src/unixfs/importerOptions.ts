import type { ImporterOptions } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced, trickle } from 'ipfs-unixfs-importer/layout';
import type { CommandOptions } from '../commands/types.js';
import { hasherOf, type NodeHasher } from '../dag/hashers.js';
import { IpfsNodeError } from '../errors.js';
import { leafImporter } from './leafImporter.js';

/** Kubo's largest accepted chunk size. */
export const MAX_CHUNK_SIZE = 1024 * 1024;

/** Importer options, and the hash function the blocks are stored under. */
export interface AddImport {
  readonly importer: ImporterOptions & { cidVersion: 0 | 1; rawLeaves: boolean; wrapWithDirectory: boolean };
  /** `hash`: sha2-256 is what the importer computes; any other means rewriting the DAG. */
  readonly hasher: NodeHasher;
}

/**
 * Maps `add` options to importer options that reproduce Kubo's CIDs: CIDv0, dag-pb leaves,
 * 256 KiB chunks, balanced layout with 174 links per node; `cid-version=1` implies raw leaves;
 * a `hash` other than sha2-256 implies CIDv1 (CIDv0 is refused with it); UnixFS metadata
 * (`metadata`: mode/mtime asked for) needs dag-pb nodes, so raw leaves are off then (refused
 * when asked for explicitly); `trickle` uses Kubo's trickle layout (raw-type UnixFS leaves, no
 * single-leaf reduction); large directories become HAMT shards as in Kubo
 * (`Internal.UnixFSShardingSizeThreshold`).
 */
export function importerOptions(options: CommandOptions, shardingThresholdBytes = 262144, metadata = false): AddImport {
  const hasher = hasherOf(options.string('hash') ?? 'sha2-256');
  if (hasher.code === 0x00) throw new IpfsNodeError('command', 'add: the identity hash cannot address files');
  const given = options.int('cid-version');
  if (given !== undefined && given !== 0 && given !== 1) {
    throw new IpfsNodeError('command', `unknown CID version: ${given}`);
  }
  if (given === 0 && hasher.name !== 'sha2-256') throw new IpfsNodeError('command', 'CIDv0 only supports sha2-256');
  const cidVersion: 0 | 1 = given ?? (hasher.name === 'sha2-256' ? 0 : 1);
  let rawLeaves = options.has('raw-leaves') ? options.bool('raw-leaves') : cidVersion === 1;
  if (metadata) {
    if (options.has('raw-leaves') && rawLeaves) {
      throw new IpfsNodeError(
        'command',
        "raw-leaves can't be used with UnixFS metadata like mode or modification time",
      );
    }
    rawLeaves = false;
  }
  const useTrickle = options.bool('trickle');
  const leafType = useTrickle && !rawLeaves ? 'raw' : 'file';
  const importer = {
    cidVersion,
    rawLeaves,
    reduceSingleLeafToSelf: !useTrickle,
    leafType,
    chunker: fixedSize({ chunkSize: chunkSize(options.string('chunker') ?? 'size-262144') }),
    layout: useTrickle ? trickle({ maxChildrenPerNode: 174, layerRepeat: 4 }) : balanced({ maxChildrenPerNode: 174 }),
    wrapWithDirectory: options.bool('wrap-with-directory'),
    // Kubo's directory sharding: HAMT with 256 buckets once the links' size estimate exceeds the threshold
    shardSplitThresholdBytes: shardingThresholdBytes,
    shardSplitStrategy: 'links-bytes',
    shardFanoutBits: 8,
    // one file at a time: multipart parts arrive in order and are read as they stream in
    fileImportConcurrency: 1,
    blockWriteConcurrency: 50,
    bufferImporter: leafImporter({ rawLeaves, leafType, cidVersion }),
  } satisfies ImporterOptions;
  return { importer, hasher };
}

function chunkSize(spec: string): number {
  const m = /^size-(\d+)$/.exec(spec);
  if (m === null) {
    if (spec === 'default') return 262144;
    throw new IpfsNodeError('command', `unsupported chunker "${spec}": only size-N is supported`);
  }
  const n = Number(m[1]);
  if (n <= 0) throw new IpfsNodeError('command', 'chunker size must be greater than 0');
  if (n > MAX_CHUNK_SIZE) {
    throw new IpfsNodeError('command', `chunker parameters may not exceed the maximum chunk size of ${MAX_CHUNK_SIZE}`);
  }
  return n;
}
