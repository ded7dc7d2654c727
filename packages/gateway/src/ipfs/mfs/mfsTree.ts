import type { CID } from 'multiformats/cid';
import { type BlockPrefix, prefixOf } from './blockPrefix.js';
import type { DirLink } from './DirLink.js';
import { emptyDirectory, findEntry, isDirectory, setEntry } from './directoryEntries.js';
import { mfsError, NOT_EXIST } from './mfsError.js';
import { cumulativeSize, type MfsNode, type MfsSession } from './MfsSession.js';

/**
 * The node at `parts` under `root` (Kubo's `mfs.Lookup`): `file does not exist` for a missing
 * name, `cannot access a/b: Not a directory` when a name is looked up under a file.
 *
 * @example
 * const node = await lookupNode(session, root, ['docs', 'a.txt']);
 */
export async function lookupNode(session: MfsSession, root: CID, parts: readonly string[]): Promise<MfsNode> {
  let node = await session.load(root);
  for (let i = 0; i < parts.length; i++) {
    if (!isDirectory(node)) throw mfsError(`cannot access ${parts.slice(0, i + 1).join('/')}: Not a directory`);
    const entry = await findEntry(session, node, parts[i]!);
    if (entry === undefined) throw mfsError(NOT_EXIST);
    node = await session.load(entry.cid);
  }
  return node;
}

/** A directory entry pointing at `node` under `name`. */
export function linkTo(name: string, node: MfsNode): DirLink {
  return { name, cid: node.cid, tsize: cumulativeSize(node) };
}

/** What {@link editEntry} does in the directory it reaches. */
export type EntryEdit = (
  current: DirLink | undefined,
  dir: MfsNode,
) => Promise<DirLink | undefined | typeof KEEP> | DirLink | undefined | typeof KEEP;

/** Returned by an {@link EntryEdit} that changes nothing. */
export const KEEP: unique symbol = Symbol('keep');

/** How {@link editEntry} reaches its directory. */
export interface EditOptions {
  /** Create missing directories on the way (`-p`), else `file does not exist`. */
  readonly parents?: boolean;
  /** CID prefix of the directories it creates (default: their parent's). */
  readonly newDirectoryPrefix?: BlockPrefix | undefined;
  /** Kubo's sharding threshold (`DEFAULT_SHARDING_THRESHOLD`). */
  readonly threshold: number;
}

/**
 * Changes entry `name` of the directory at `dir` under `root`: `edit` gets the entry (if any) and
 * returns the new one, undefined to remove it, or {@link KEEP}. The directories on the way are
 * rewritten from the bottom up (each keeps its CID prefix and metadata); missing ones are created
 * with `parents`. Returns the new root (the same root when nothing changed).
 *
 * @example
 * const next = await editEntry(session, root, ['docs'], 'a.txt', () => linkTo('a.txt', file), { threshold });
 */
export async function editEntry(
  session: MfsSession,
  root: CID,
  dir: readonly string[],
  name: string,
  edit: EntryEdit,
  options: EditOptions,
): Promise<CID> {
  const chain: MfsNode[] = [await session.load(root)];
  let created = false;
  for (let i = 0; i < dir.length; i++) {
    const parent = chain[i]!;
    if (!isDirectory(parent)) throw mfsError(`cannot access ${dir.slice(0, i + 1).join('/')}: Not a directory`);
    const entry = created ? undefined : await findEntry(session, parent, dir[i]!);
    if (entry === undefined) {
      if (!options.parents) throw mfsError(NOT_EXIST);
      chain.push(emptyDirectory(session, options.newDirectoryPrefix ?? prefixOf(parent.cid)));
      created = true;
      continue;
    }
    const child = await session.load(entry.cid);
    if (!isDirectory(child)) throw mfsError(`${dir.slice(0, i + 1).join('/')} is not a directory`);
    chain.push(child);
  }
  const target = chain.at(-1)!;
  if (!isDirectory(target)) throw mfsError(`${dir.join('/')} is not a directory`);
  const current = created ? undefined : await findEntry(session, target, name);
  const next = await edit(current, target);
  if (next === KEEP && !created) return root;
  let node = next === KEEP ? target : (await setEntry(session, target, name, next, options.threshold)).node;
  for (let i = chain.length - 2; i >= 0; i--) {
    node = (await setEntry(session, chain[i]!, dir[i]!, linkTo(dir[i]!, node), options.threshold)).node;
  }
  return node.cid;
}

/**
 * The root with the node at `parts` replaced by what `change` makes of it (the root itself when
 * `parts` is empty): `file does not exist` when there is none.
 *
 * @example
 * const next = await replaceNode(session, root, ['a.txt'], (node) => withMetadata(session, node, { mode: 0o600 }), { threshold });
 */
export async function replaceNode(
  session: MfsSession,
  root: CID,
  parts: readonly string[],
  change: (node: MfsNode) => MfsNode | Promise<MfsNode>,
  options: EditOptions,
): Promise<CID> {
  if (parts.length === 0) return (await change(await session.load(root))).cid;
  const name = parts.at(-1)!;
  return editEntry(
    session,
    root,
    parts.slice(0, -1),
    name,
    async (current) => {
      if (current === undefined) throw mfsError(NOT_EXIST);
      const next = await change(await session.load(current.cid));
      return next.cid.equals(current.cid) ? KEEP : linkTo(name, next);
    },
    options,
  );
}
