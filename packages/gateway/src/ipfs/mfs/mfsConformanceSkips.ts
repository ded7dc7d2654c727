/** One skipped interface-ipfs-core test (or describe block), the conformance runner's `SkipEntry`. */
interface MfsSkip {
  /** Full name: the describe titles and the test's own, joined with ` > `. */
  readonly test: string;
  readonly reason: string;
  readonly only?: 'gateway' | 'node';
}

const SHARDING =
  'needs a node started with Internal.UnixFSShardingSizeThreshold=1B, so that `add` shards every directory: every spawn here is a key on one shared node, which shards at Kubo’s 256 KiB. MFS in sharded directories (find, list, read, add, remove, CID for CID with the importer) is tested in ipfs/mfs/serveFilesCommand.sharding.test.ts and hamtDirectory.test.ts';
const NO_DEFAULT_MODE =
  'Kubo stores no mode unless one is given, and files/stat reports none (the default 0644/0755 is js-ipfs’s)';
const SHARD_SPLIT_OPTION =
  'shardSplitThreshold is a js-ipfs option: Kubo shards a directory at 256 KiB of entries, not at its first file';

/**
 * The interface-ipfs-core 0.158.1 `files` (MFS) tests that cannot run against nodegate, each with
 * why: tests of js-ipfs behaviour that Kubo does not have, of client methods no kubo-rpc-client
 * version has, and of node settings a per-key MFS on a shared node cannot take. Every other
 * `files` test runs through the gateway. Against the embedded node alone the whole group is
 * skipped: MFS is the gateway's (one per key), the node has none.
 */
export const mfsConformanceSkips: readonly MfsSkip[] = [
  ...['chmod', 'cp', 'flush', 'ls', 'mkdir', 'mv', 'read', 'rm', 'stat', 'touch', 'write'].map(
    (name): MfsSkip => ({
      test: `.files.${name}`,
      only: 'node',
      reason:
        'the embedded node has no MFS of its own: files/* is answered by the gateway, one MFS per key over the node’s blocks (this group runs through the gateway)',
    }),
  ),
  {
    test: '.files.chmod',
    only: 'gateway',
    reason:
      'no kubo-rpc-client (7, nor 3) has files.chmod, and the suite’s symbolic modes (+x, a+X) are js-ipfs’s: Kubo’s files/chmod takes an octal mode. The gateway’s files/chmod is tested in ipfs/mfs/serveFilesCommand.wire.test.ts',
  },
  {
    test: '.files.touch',
    only: 'gateway',
    reason:
      'no kubo-rpc-client (7, nor 3) has files.touch, and Kubo’s touch does not create a missing file (as "should create an empty file" expects). The gateway’s files/touch is tested in ipfs/mfs/serveFilesCommand.wire.test.ts',
  },
  ...['cp', 'ls', 'mkdir', 'mv', 'read', 'rm', 'stat', 'write'].map(
    (name): MfsSkip => ({ test: `.files.${name} > with sharding`, only: 'gateway', reason: SHARDING }),
  ),
  {
    test: '.files.cp > refuses to copy multiple files to a non-existent child directory',
    only: 'gateway',
    reason: 'Kubo’s files/cp takes one source and one destination (and the expected message is js-ipfs’s)',
  },
  {
    test: '.files.cp > copies multiple files to new location',
    only: 'gateway',
    reason: 'Kubo’s files/cp takes one source and one destination',
  },
  {
    test: '.files.cp > copies a file to a pre-existing directory',
    only: 'gateway',
    reason:
      'Kubo puts the node at the destination path itself: an existing entry there is "directory already has entry by that name" (a destination ending in / copies into it)',
  },
  {
    test: '.files.cp > refuses to copy files to an unreadable node',
    only: 'gateway',
    reason:
      'its setup copies a CID of the identity codec into MFS, which Kubo refuses ("cp: source must be a valid UnixFS (dag-pb or raw codec)")',
  },
  {
    test: '.files.cp > should respect metadata when copying from outside of mfs',
    only: 'gateway',
    reason:
      'its setup adds a file whose upload carries a mode and an mtime, without preserve-mode/preserve-mtime: Kubo (and the embedded node) only report them back and store none, so there is none to copy. MFS keeps the metadata a node stores (tested in ipfs/mfs/serveFilesCommand.wire.test.ts)',
  },
  {
    test: '.files.ls > lists a raw node',
    only: 'gateway',
    reason: 'Kubo’s files/ls lists MFS paths only, not /ipfs/… paths',
  },
  {
    test: '.files.ls > lists a raw node in an mfs directory',
    only: 'gateway',
    reason: 'Kubo’s files/ls lists MFS paths only, not /ipfs/… paths',
  },
  {
    test: '.files.read > should read from outside of mfs',
    only: 'gateway',
    reason: 'Kubo’s files/read reads MFS paths only, not /ipfs/… paths',
  },
  { test: '.files.mkdir > should make directory and have default mode', only: 'gateway', reason: NO_DEFAULT_MODE },
  { test: '.files.stat > should stat file with mode', only: 'gateway', reason: NO_DEFAULT_MODE },
  { test: '.files.stat > should stat dir with mode', only: 'gateway', reason: NO_DEFAULT_MODE },
  { test: '.files.stat > should stat sharded dir with mode', only: 'gateway', reason: SHARD_SPLIT_OPTION },
  { test: '.files.stat > should stat sharded dir with mtime', only: 'gateway', reason: SHARD_SPLIT_OPTION },
  {
    test: '.files.stat > stats a dag-cbor node',
    only: 'gateway',
    reason: 'Kubo’s MFS holds UnixFS only: copying a dag-cbor node in is refused (cp: source must be a valid UnixFS)',
  },
  {
    test: '.files.stat > stats an identity CID',
    only: 'gateway',
    reason:
      'the CID has the identity codec (0x00), not raw or dag-pb: Kubo refuses to copy it into MFS (cp: source must be a valid UnixFS)',
  },
  ...[
    'removing a file',
    'removing a subshard',
    'removing a file from a subshard of a subshard',
    'removing a subshard of a subshard',
  ].map(
    (what): MfsSkip => ({
      test: `.files.rm > results in the same hash as a sharded directory created by the importer when ${what}`,
      only: 'gateway',
      reason: `${SHARD_SPLIT_OPTION} (these directories are built with it; Kubo’s own run of the suite skips them)`,
    }),
  ),
  {
    test: '.files.write > writes a small file with an escaped slash in the title',
    only: 'gateway',
    reason: 'Kubo has no escapes in MFS paths: "\\/" is a directory separator',
  },
];
