/** How a command's answer is framed on the wire. */
export type IpfsOutputKind = 'bytes' | 'json' | 'ndjson';

/** What the gateway knows about one Kubo RPC command. */
export interface IpfsCommandSpec {
  /** In the default allowlist (`ipfs.allow` replaces the list). */
  readonly allowedByDefault: boolean;
  /** Answer framing (byte stream, one JSON value, NDJSON values). */
  readonly output: IpfsOutputKind;
  /** A successful call stores the uploaded bytes: counted towards `ipfs_stored_bytes`. */
  readonly storesBytes: boolean;
  /**
   * `upstream`: proxied as it is; `gateway`: answered by the gateway (object/*, removed from Kubo;
   * and what must show a key only its own data: refs/local, repo/stat, repo/gc).
   */
  readonly servedBy: 'upstream' | 'gateway';
  /** Credits charged per call against the key's limits (uploads cost more; bytes are recorded as usage). */
  readonly credits: number;
  /**
   * The answer carries stored content (file bytes, archives, blocks, CARs, listings): its bytes
   * are metered against the key's served-bytes limits and charged per MiB.
   */
  readonly servesContent: boolean;
}

/** Credits of a command that reads, and of one that stores bytes. */
const READ_CREDITS = 10;
const STORE_CREDITS = 40;

const hosted = (output: IpfsOutputKind, storesBytes = false): IpfsCommandSpec => ({
  allowedByDefault: true,
  output,
  storesBytes,
  servedBy: 'upstream',
  credits: storesBytes ? STORE_CREDITS : READ_CREDITS,
  servesContent: false,
});
/** A hosted read whose answer is stored content (metered as served bytes). */
const content = (output: IpfsOutputKind): IpfsCommandSpec => ({ ...hosted(output), servesContent: true });
const object = (output: IpfsOutputKind, storesBytes = false): IpfsCommandSpec => ({
  allowedByDefault: true,
  output,
  storesBytes,
  servedBy: 'gateway',
  credits: storesBytes ? STORE_CREDITS : READ_CREDITS,
  servesContent: false,
});
/**
 * Answered by the gateway from the key's own pins (its view of the node: no other key's data
 * shows); `servesContent` when the answer lists stored content.
 */
const ownView = (output: IpfsOutputKind, servesContent: boolean): IpfsCommandSpec => ({
  allowedByDefault: true,
  output,
  storesBytes: false,
  servedBy: 'gateway',
  credits: READ_CREDITS,
  servesContent,
});
/**
 * An MFS command (`files/*`), answered by the gateway over each key's own MFS tree (mfs/);
 * `storesBytes` for files/write, `servesContent` for files/read and files/ls.
 */
const mfs = (
  output: IpfsOutputKind,
  use: { storesBytes?: boolean; servesContent?: boolean } = {},
): IpfsCommandSpec => ({
  allowedByDefault: true,
  output,
  storesBytes: use.storesBytes ?? false,
  servedBy: 'gateway',
  credits: use.storesBytes ? STORE_CREDITS : READ_CREDITS,
  servesContent: use.servesContent ?? false,
});
/** A Kubo command that exists but is not offered by default (admin, networking, MFS, keys…). */
const other: IpfsCommandSpec = {
  allowedByDefault: false,
  output: 'json',
  storesBytes: false,
  servedBy: 'upstream',
  credits: READ_CREDITS,
  servesContent: false,
};

/**
 * Every Kubo RPC command the gateway knows, by its path under `/api/v0/`. Known commands
 * outside the allowlist get 403; anything else 404. The default allowlist is the hosted set.
 */
export const ipfsCommands = {
  add: hosted('ndjson', true),
  cat: content('bytes'),
  get: content('bytes'),
  ls: content('json'),
  'block/get': content('bytes'),
  'block/put': hosted('ndjson', true),
  'block/stat': hosted('json'),
  'dag/get': content('bytes'),
  'dag/put': hosted('ndjson', true),
  'dag/resolve': hosted('json'),
  'dag/import': hosted('ndjson', true),
  'dag/export': content('bytes'),
  'pin/add': hosted('json'),
  'pin/ls': hosted('json'),
  'pin/rm': hosted('json'),
  'pin/update': hosted('json'),
  version: hosted('json'),
  'object/get': object('json'),
  'object/put': object('json', true),
  'object/stat': object('json'),
  'object/data': object('bytes'),
  'object/links': object('json'),
  'object/new': object('json', true),
  'object/patch/add-link': object('json', true),
  'object/patch/rm-link': object('json', true),
  'object/patch/append-data': object('json', true),
  'object/patch/set-data': object('json', true),
  refs: content('ndjson'),
  'refs/local': ownView('ndjson', true),
  resolve: hosted('json'),
  dns: hosted('json'),
  'repo/stat': ownView('json', false),
  'repo/version': hosted('json'),
  // the route's own collection (never the node's raw one, whose answer names other keys' blocks)
  'repo/gc': { ...other, output: 'ndjson', servedBy: 'gateway' },
  'files/chcid': mfs('json'),
  'files/chmod': mfs('json'),
  'files/cp': mfs('json'),
  'files/flush': mfs('json'),
  'files/ls': mfs('json', { servesContent: true }),
  'files/mkdir': mfs('json'),
  'files/mv': mfs('json'),
  'files/read': mfs('bytes', { servesContent: true }),
  'files/rm': mfs('json'),
  'files/stat': mfs('json'),
  'files/touch': mfs('json'),
  'files/write': mfs('json', { storesBytes: true }),
  'block/rm': other,
  'dag/stat': other,
  'pin/verify': other,
  'pin/remote/add': other,
  'pin/remote/ls': other,
  'pin/remote/rm': other,
  'pin/remote/service/add': other,
  'pin/remote/service/ls': other,
  'pin/remote/service/rm': other,
  'object/diff': other,
  'repo/fsck': other,
  'repo/verify': other,
  'repo/ls': other,
  id: other,
  ping: other,
  shutdown: other,
  commands: other,
  config: other,
  'config/show': other,
  'config/replace': other,
  'config/profile/apply': other,
  bootstrap: other,
  'bootstrap/add': other,
  'bootstrap/add/default': other,
  'bootstrap/list': other,
  'bootstrap/rm': other,
  'bootstrap/rm/all': other,
  'bitswap/ledger': other,
  'bitswap/reprovide': other,
  'bitswap/stat': other,
  'bitswap/wantlist': other,
  'cid/base32': other,
  'cid/bases': other,
  'cid/codecs': other,
  'cid/format': other,
  'cid/hashes': other,
  'dht/findpeer': other,
  'dht/findprovs': other,
  'dht/get': other,
  'dht/provide': other,
  'dht/put': other,
  'dht/query': other,
  'diag/cmds': other,
  'diag/profile': other,
  'diag/sys': other,
  'files/chroot': other,
  'filestore/dups': other,
  'filestore/ls': other,
  'filestore/verify': other,
  'key/export': other,
  'key/gen': other,
  'key/import': other,
  'key/list': other,
  'key/rename': other,
  'key/rm': other,
  'key/rotate': other,
  'log/level': other,
  'log/ls': other,
  'log/tail': other,
  'multibase/decode': other,
  'multibase/encode': other,
  'multibase/list': other,
  'multibase/transcode': other,
  'name/publish': other,
  'name/resolve': other,
  'name/inspect': other,
  'name/pubsub/cancel': other,
  'name/pubsub/state': other,
  'name/pubsub/subs': other,
  'p2p/close': other,
  'p2p/forward': other,
  'p2p/listen': other,
  'p2p/ls': other,
  'p2p/stream/close': other,
  'p2p/stream/ls': other,
  'pubsub/ls': other,
  'pubsub/peers': other,
  'pubsub/pub': other,
  'pubsub/sub': other,
  'routing/findpeer': other,
  'routing/findprovs': other,
  'routing/get': other,
  'routing/provide': other,
  'routing/put': other,
  'stats/bitswap': other,
  'stats/bw': other,
  'stats/dht': other,
  'stats/provide': other,
  'stats/repo': other,
  'swarm/addrs': other,
  'swarm/addrs/listen': other,
  'swarm/addrs/local': other,
  'swarm/connect': other,
  'swarm/disconnect': other,
  'swarm/filters': other,
  'swarm/filters/add': other,
  'swarm/filters/rm': other,
  'swarm/peering/add': other,
  'swarm/peering/ls': other,
  'swarm/peering/rm': other,
  'swarm/peers': other,
  'version/deps': other,
} as const satisfies Record<string, IpfsCommandSpec>;

/** A command name the gateway knows. */
export type IpfsCommandName = keyof typeof ipfsCommands;

/** The default allowlist: the commands a hosted IPFS API offers. */
export const DEFAULT_IPFS_ALLOW: readonly IpfsCommandName[] = (Object.keys(ipfsCommands) as IpfsCommandName[]).filter(
  (name) => ipfsCommands[name].allowedByDefault,
);

/** True when `name` is a command the gateway knows. */
export function isIpfsCommandName(name: string): name is IpfsCommandName {
  return Object.hasOwn(ipfsCommands, name);
}
