import type * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { type BlockPrefix, dagPbPrefix, prefixOf } from './blockPrefix.js';
import type { DirLink } from './DirLink.js';
import { mfsError } from './mfsError.js';
import { cumulativeSize, type MfsNode, type MfsSession } from './MfsSession.js';
import { murmur3X64Hash64 } from './murmur3x64.js';
import { encodeUnixfs, type UnixfsMtime, UnixfsType } from './unixfsData.js';

/** The HAMT layout Kubo and the JS importer write: 256 buckets, murmur3-x64-64 of the name. */
const FANOUT = 256;
const HASH_MURMUR3 = 0x22n;
/** The hash has 8 bytes: one per level. */
const MAX_DEPTH = 8;

type Slot = { kind: 'leaf'; link: DirLink } | { kind: 'shard'; cid: CID; tsize: number };

/** The metadata a shard keeps (only the root shard of a directory carries any). */
interface ShardMeta {
  readonly mode?: number | undefined;
  readonly mtime?: UnixfsMtime | undefined;
}

const encoder = new TextEncoder();
const hashOf = (name: string) => murmur3X64Hash64(encoder.encode(name));
const hex = (slot: number) => slot.toString(16).toUpperCase().padStart(2, '0');

function slotAt(hash: Uint8Array, depth: number): number {
  if (depth >= MAX_DEPTH) throw mfsError('sharded directory too deep: names collide in every level of the hash');
  return hash[depth]!;
}

/** The slots of one shard node, by bucket index. */
function readSlots(node: MfsNode): Map<number, Slot> {
  const u = node.unixfs;
  if (u === undefined || u.type !== UnixfsType.hamtShard) throw mfsError(`${node.cid} is not a HAMT shard`);
  if (u.fanout !== BigInt(FANOUT) || u.hashType !== HASH_MURMUR3) {
    throw mfsError(
      `unsupported HAMT directory ${node.cid}: fanout ${u.fanout} with hash 0x${u.hashType?.toString(16)}`,
    );
  }
  const slots = new Map<number, Slot>();
  for (const l of node.pb?.Links ?? []) {
    const name = l.Name ?? '';
    const slot = Number.parseInt(name.slice(0, 2), 16);
    if (name.length < 2 || !/^[0-9A-F]{2}/.test(name) || slot >= FANOUT) {
      throw mfsError(`invalid link name "${name}" in HAMT shard ${node.cid}`);
    }
    if (name.length === 2) slots.set(slot, { kind: 'shard', cid: l.Hash, tsize: l.Tsize ?? 0 });
    else slots.set(slot, { kind: 'leaf', link: { name: name.slice(2), cid: l.Hash, tsize: l.Tsize ?? 0 } });
  }
  return slots;
}

/**
 * The bitfield of used buckets as go-bitfield writes it: a big-endian integer whose bit `i` is
 * bucket `i`, without leading zero bytes.
 */
function bitfield(slots: Iterable<number>): Uint8Array {
  const bytes = new Uint8Array(FANOUT / 8);
  for (const i of slots) bytes[bytes.length - 1 - Math.floor(i / 8)]! |= 1 << (i % 8);
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

function encodeShard(
  session: MfsSession,
  slots: ReadonlyMap<number, Slot>,
  prefix: BlockPrefix,
  meta: ShardMeta,
): MfsNode {
  const indices = [...slots.keys()].sort((a, b) => a - b);
  const links: dagPb.PBLink[] = indices.map((i) => {
    const s = slots.get(i)!;
    return s.kind === 'leaf'
      ? { Hash: s.link.cid, Name: `${hex(i)}${s.link.name}`, Tsize: s.link.tsize }
      : { Hash: s.cid, Name: hex(i), Tsize: s.tsize };
  });
  const data = encodeUnixfs({
    type: UnixfsType.hamtShard,
    data: bitfield(indices),
    blocksizes: [],
    hashType: HASH_MURMUR3,
    fanout: BigInt(FANOUT),
    mode: meta.mode,
    mtime: meta.mtime,
  });
  return session.makeNode({ Data: data, Links: links }, dagPbPrefix(prefix));
}

/** A shard (at `depth`) holding exactly `entries`, as the importer builds it. */
function buildShard(
  session: MfsSession,
  entries: ReadonlyArray<{ link: DirLink; hash: Uint8Array }>,
  depth: number,
  prefix: BlockPrefix,
  meta: ShardMeta,
): MfsNode {
  const groups = new Map<number, Array<{ link: DirLink; hash: Uint8Array }>>();
  for (const e of entries) {
    const slot = slotAt(e.hash, depth);
    const g = groups.get(slot);
    if (g === undefined) groups.set(slot, [e]);
    else g.push(e);
  }
  const slots = new Map<number, Slot>();
  for (const [slot, group] of groups) {
    if (group.length === 1) slots.set(slot, { kind: 'leaf', link: group[0]!.link });
    else {
      const child = buildShard(session, group, depth + 1, prefix, {});
      slots.set(slot, { kind: 'shard', cid: child.cid, tsize: cumulativeSize(child) });
    }
  }
  return encodeShard(session, slots, prefix, meta);
}

/**
 * A HAMT-sharded directory holding `entries` (its root carries `meta`), as Kubo and the JS
 * importer lay one out for the same names: the layout depends on the names only.
 *
 * @example
 * const root = buildHamtDirectory(session, links, CIDV0_PREFIX, { mode: 0o755 });
 */
export function buildHamtDirectory(
  session: MfsSession,
  entries: readonly DirLink[],
  prefix: BlockPrefix,
  meta: ShardMeta,
): MfsNode {
  return buildShard(
    session,
    entries.map((link) => ({ link, hash: hashOf(link.name) })),
    0,
    prefix,
    meta,
  );
}

/** The entry `name` of a HAMT directory, or undefined. */
export async function findHamtEntry(session: MfsSession, root: MfsNode, name: string): Promise<DirLink | undefined> {
  const hash = hashOf(name);
  let node = root;
  for (let depth = 0; ; depth++) {
    const slot = readSlots(node).get(slotAt(hash, depth));
    if (slot === undefined) return undefined;
    if (slot.kind === 'leaf') return slot.link.name === name ? slot.link : undefined;
    node = await session.load(slot.cid);
  }
}

/** Every entry of a HAMT directory, in bucket order (Kubo's listing order). */
export async function* listHamtEntries(session: MfsSession, root: MfsNode): AsyncGenerator<DirLink> {
  const slots = readSlots(root);
  for (const i of [...slots.keys()].sort((a, b) => a - b)) {
    const s = slots.get(i)!;
    if (s.kind === 'leaf') yield s.link;
    else yield* listHamtEntries(session, await session.load(s.cid));
  }
}

const metaOf = (node: MfsNode): ShardMeta => ({ mode: node.unixfs?.mode, mtime: node.unixfs?.mtime });

async function insertAt(
  session: MfsSession,
  node: MfsNode,
  depth: number,
  link: DirLink,
  hash: Uint8Array,
  prefix: BlockPrefix,
): Promise<MfsNode> {
  const slots = readSlots(node);
  const index = slotAt(hash, depth);
  const current = slots.get(index);
  if (current === undefined || (current.kind === 'leaf' && current.link.name === link.name)) {
    slots.set(index, { kind: 'leaf', link });
  } else if (current.kind === 'leaf') {
    const child = buildShard(
      session,
      [
        { link: current.link, hash: hashOf(current.link.name) },
        { link, hash },
      ],
      depth + 1,
      prefix,
      {},
    );
    slots.set(index, { kind: 'shard', cid: child.cid, tsize: cumulativeSize(child) });
  } else {
    const child = await insertAt(session, await session.load(current.cid), depth + 1, link, hash, prefix);
    slots.set(index, { kind: 'shard', cid: child.cid, tsize: cumulativeSize(child) });
  }
  return encodeShard(session, slots, prefix, metaOf(node));
}

/** The slots of `node` without `name` (undefined when it is not there), shards collapsed as Kubo does. */
async function removeAt(
  session: MfsSession,
  node: MfsNode,
  depth: number,
  name: string,
  hash: Uint8Array,
  prefix: BlockPrefix,
): Promise<Map<number, Slot> | undefined> {
  const slots = readSlots(node);
  const index = slotAt(hash, depth);
  const current = slots.get(index);
  if (current === undefined) return undefined;
  if (current.kind === 'leaf') {
    if (current.link.name !== name) return undefined;
    slots.delete(index);
    return slots;
  }
  const child = await session.load(current.cid);
  const childSlots = await removeAt(session, child, depth + 1, name, hash, prefix);
  if (childSlots === undefined) return undefined;
  const only = childSlots.size === 1 ? [...childSlots.values()][0]! : undefined;
  if (childSlots.size === 0) slots.delete(index);
  else if (only?.kind === 'leaf') slots.set(index, only);
  else {
    const encoded = encodeShard(session, childSlots, prefix, metaOf(child));
    slots.set(index, { kind: 'shard', cid: encoded.cid, tsize: cumulativeSize(encoded) });
  }
  return slots;
}

/**
 * The HAMT directory with entry `name` set to `link`, or removed (`link` undefined; `found` says
 * whether it was there). Only the shards on the name's path are rewritten; a shard left with a
 * single entry folds into its parent, so the result is laid out as an import of the same names.
 */
export async function setHamtEntry(
  session: MfsSession,
  root: MfsNode,
  name: string,
  link: DirLink | undefined,
): Promise<{ node: MfsNode; found: boolean }> {
  const prefix = prefixOf(root.cid);
  const hash = hashOf(name);
  if (link !== undefined) return { node: await insertAt(session, root, 0, link, hash, prefix), found: true };
  const slots = await removeAt(session, root, 0, name, hash, prefix);
  if (slots === undefined) return { node: root, found: false };
  return { node: encodeShard(session, slots, prefix, metaOf(root)), found: true };
}
