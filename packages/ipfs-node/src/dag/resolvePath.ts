import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import { exporter } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';
import { IpfsNodeError } from '../errors.js';
import type { BlockStore } from '../repo/BlockStore.js';
import { codecOf } from './codecs.js';

/** Where a path ends: the last block reached, and inside it the remaining path and value. */
export interface ResolvedPath {
  /** The block the path ends in. */
  cid: CID;
  /** Path segments resolved inside that block's value (not through links), Kubo's RemPath. */
  remainder: string[];
  /** The value the path points at inside the block (dag-cbor/dag-json only). */
  value?: unknown;
}

/** Splits `/ipfs/<cid>/a/b`, `/ipld/<cid>/a`, `<cid>/a` into the root CID and segments. */
export function parsePath(path: string): { root: CID; segments: string[] } {
  let rest = path.trim();
  if (rest.startsWith('/ipns/')) {
    throw new IpfsNodeError(
      'command',
      `could not resolve name ${path}: IPNS needs the network and this node is offline`,
    );
  }
  if (rest.startsWith('/ipfs/')) rest = rest.slice(6);
  else if (rest.startsWith('/ipld/')) rest = rest.slice(6);
  else if (rest.startsWith('/')) throw new IpfsNodeError('command', `invalid path "${path}": unknown namespace`);
  const [first = '', ...segments] = rest.split('/');
  let root: CID;
  try {
    root = CID.parse(first);
  } catch {
    throw new IpfsNodeError('command', `invalid path "${path}": invalid cid: ${first === '' ? 'empty' : 'bad'} cid`);
  }
  return { root, segments: segments.filter((s) => s !== '') };
}

/**
 * Resolves an IPFS path against the local blockstore: through dag-pb directories by link name
 * (HAMT-sharded directories included), through dag-cbor/dag-json values by field name or index
 * (and dag-jose objects as their JOSE form: a JWS's `link` leads to its payload), following links
 * into further blocks.
 */
export async function resolvePath(store: BlockStore, path: string, signal?: AbortSignal): Promise<ResolvedPath> {
  const { root, segments } = parsePath(path);
  let cid = root;
  let i = 0;
  while (i < segments.length) {
    const bytes = await store.get(cid, signal);
    const seg = segments[i]!;
    if (cid.code === dagPb.code) {
      const node = dagPb.decode(bytes);
      if (node.Data !== undefined && isHamt(node.Data)) {
        const entry = await exporter(`${cid}/${segments.slice(i).join('/')}`, readable(store, signal), {
          ...(signal === undefined ? {} : { signal }),
        }).catch((err: unknown) => {
          throw new IpfsNodeError('command', `no link named "${seg}" under ${cid}`, { cause: err });
        });
        return { cid: entry.cid, remainder: [] };
      }
      const link = node.Links.find((l) => l.Name === seg);
      if (link === undefined) throw new IpfsNodeError('command', `no link named "${seg}" under ${cid}`);
      cid = link.Hash;
      i++;
      continue;
    }
    if (cid.code !== 0x71 && cid.code !== 0x0129 && cid.code !== 0x0200 && cid.code !== 0x85) {
      throw new IpfsNodeError('command', `cannot resolve "${seg}" inside ${cid}: block has no fields`);
    }
    let value: unknown = codecOf(cid.code).decode(bytes);
    const start = i;
    let followed = false;
    while (i < segments.length) {
      const s = segments[i]!;
      value = field(value, s);
      if (value === undefined) throw new IpfsNodeError('command', `no link named "${s}" under ${cid}`);
      i++;
      const link = CID.asCID(value);
      if (link !== null) {
        cid = link;
        followed = true;
        break;
      }
    }
    if (!followed) return { cid, remainder: segments.slice(start), value };
  }
  return { cid, remainder: [] };
}

function field(value: unknown, seg: string): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array || CID.asCID(value) !== null) {
    return undefined;
  }
  if (Array.isArray(value)) {
    const index = Number(seg);
    return Number.isInteger(index) ? value[index] : undefined;
  }
  return Object.hasOwn(value, seg) ? (value as Record<string, unknown>)[seg] : undefined;
}

function isHamt(data: Uint8Array): boolean {
  try {
    return UnixFS.unmarshal(data).type === 'hamt-sharded-directory';
  } catch {
    return false;
  }
}

/** Adapts the block store to the exporter's storage interface. */
export function readable(store: BlockStore, signal?: AbortSignal) {
  return {
    async *get(cid: CID): AsyncGenerator<Uint8Array> {
      yield await store.get(cid, signal);
    },
  };
}
