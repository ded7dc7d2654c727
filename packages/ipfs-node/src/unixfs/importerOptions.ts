import type { ImporterOptions } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced, trickle } from 'ipfs-unixfs-importer/layout';
import type { CommandOptions } from '../commands/types.js';
import { IpfsNodeError } from '../errors.js';

/** Kubo's largest accepted chunk size. */
export const MAX_CHUNK_SIZE = 1024 * 1024;

/**
 * Maps `add` options to importer options that reproduce Kubo's CIDs: CIDv0, dag-pb leaves,
 * 256 KiB chunks, balanced layout with 174 links per node; `cid-version=1` implies raw leaves;
 * `trickle` uses Kubo's trickle layout (raw-type UnixFS leaves, no single-leaf reduction);
 * large directories become HAMT shards as in Kubo (`Internal.UnixFSShardingSizeThreshold`).
 */
export function importerOptions(options: CommandOptions, shardingThresholdBytes = 262144): ImporterOptions {
  const hash = options.string('hash') ?? 'sha2-256';
  if (hash !== 'sha2-256') throw new IpfsNodeError('command', `unsupported hash function: ${hash} (only sha2-256)`);
  const cidVersion = options.int('cid-version') ?? 0;
  if (cidVersion !== 0 && cidVersion !== 1) throw new IpfsNodeError('command', `unknown CID version: ${cidVersion}`);
  const rawLeaves = options.has('raw-leaves') ? options.bool('raw-leaves') : cidVersion === 1;
  const useTrickle = options.bool('trickle');
  return {
    cidVersion,
    rawLeaves,
    reduceSingleLeafToSelf: !useTrickle,
    leafType: useTrickle && !rawLeaves ? 'raw' : 'file',
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
  };
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
