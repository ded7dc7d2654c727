import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { callUpstream } from '../callUpstream.js';
import { IPFS_CORS_HEADERS } from '../ipfsCors.js';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import type { FilesRequest } from './FilesRequest.js';
import { mfsError, mfsRequestError } from './mfsError.js';
import { checkPath } from './mfsPath.js';
import { cumulativeSize, type MfsNode } from './MfsSession.js';
import { lookupNode } from './mfsTree.js';
import { readFilesOptions } from './readFilesOptions.js';
import { isIpfsPath, resolveIpfsPath } from './resolveIpfsPath.js';
import { writeFilesAnswer } from './writeFilesAnswer.js';

/** Kubo's default `--format` (the text answer's layout; JSON answers do not use it). */
const DEFAULT_FORMAT = '<hash>\nSize: <size>\nCumulativeSize: <cumulsize>\nChildBlocks: <childs>\nType: <type>';
/** The default of Kubo releases that print mode and mtime too: also not a format of the caller's. */
const DEFAULT_FORMAT_WITH_METADATA = `${DEFAULT_FORMAT}\nMode: <mode> (<mode-octal>)\nMtime: <mtime>`;

/** `files/stat`'s JSON answer (Kubo's `statOutput`). */
export interface FilesStatAnswer {
  Hash: string;
  Size: number;
  CumulativeSize: number;
  Blocks: number;
  Type: 'file' | 'directory' | 'symlink';
  WithLocality?: boolean;
  Local?: boolean;
  SizeLocal?: number;
  /** Permission bits in octal (`0644`), when the node stores a mode. */
  Mode?: string;
  /** Seconds of the stored mtime, when not 0. */
  Mtime?: number;
  MtimeNsecs?: number;
}

/**
 * What Kubo's `files/stat` says of a node: its CID, file size (0 for directories), cumulative
 * size (the block plus its links' `Tsize`), links and type, and the UnixFS mode (octal) and
 * mtime it stores, if any (kubo-rpc-client reads `Mode` in octal).
 */
export function statNode(node: MfsNode): FilesStatAnswer {
  const out: FilesStatAnswer = {
    Hash: node.cid.toString(),
    Size: node.unixfs === undefined ? node.bytes.byteLength : Number(node.unixfs.filesize ?? 0n),
    CumulativeSize: cumulativeSize(node),
    Blocks: node.pb?.Links.length ?? 0,
    Type: node.kind === 'hamt' ? 'directory' : node.kind,
  };
  const mode = node.unixfs?.mode;
  if (mode !== undefined && mode !== 0) out.Mode = `0${mode.toString(8).padStart(3, '0')}`;
  const mtime = node.unixfs?.mtime;
  if (mtime !== undefined && mtime.secs !== 0n) out.Mtime = Number(mtime.secs);
  if (mtime !== undefined && mtime.nsecs !== 0) out.MtimeNsecs = mtime.nsecs;
  return out;
}

/**
 * `files/stat <path>`: {@link statNode} of an MFS path of the key, or of an `/ipfs/…` path
 * (outside MFS, like Kubo). `hash`, `size` and `format` shape Kubo's text answer
 * (`encoding=text`: `<hash>`, `<size>`, `<cumulsize>`, `<childs>`, `<type>`, `<mode-octal>`,
 * `<mtime-secs>`, `<mtime-nsecs>`); asking for more than one of them is refused (400) as Kubo does. `with-local` adds `WithLocality`,
 * `Local` (every block of the DAG is on the node) and `SizeLocal` (the bytes of those that are,
 * counted as Kubo walks them), without fetching anything.
 *
 * @example
 * await filesStat(request); // {"Hash":"Qm…","Size":13,"CumulativeSize":71,"Blocks":1,"Type":"file"}
 */
export async function filesStat(r: FilesRequest): Promise<void> {
  const o = readFilesOptions(r.params, {
    format: { type: 'string' },
    hash: { type: 'bool' },
    size: { type: 'bool' },
    'with-local': { type: 'bool' },
  });
  const format = o.string('format');
  const custom = format !== undefined && format !== DEFAULT_FORMAT && format !== DEFAULT_FORMAT_WITH_METADATA;
  if ([o.bool('hash'), o.bool('size'), custom].filter(Boolean).length > 1) {
    throw mfsRequestError('format was set by multiple options. Only one format option is allowed');
  }
  const arg = r.params.get('arg');
  if (arg === null) throw mfsRequestError('argument "path" is required');
  const session = r.mfs.session(r.signal);
  let node: MfsNode;
  if (isIpfsPath(arg)) {
    node = await session.load(await resolveIpfsPath(r.ctx.upstream, arg, r.signal));
  } else {
    const path = checkPath(arg);
    node = await lookupNode(session, (await r.mfs.current(r.key)).root, path.parts);
  }
  const answer = statNode(node);
  if (o.bool('with-local')) {
    const local = await walkLocal(r.ctx.upstream, node.cid, r.signal);
    answer.WithLocality = true;
    if (local.complete) answer.Local = true;
    if (local.bytes > 0) answer.SizeLocal = local.bytes;
  }
  if (r.params.get('encoding') !== 'text') return writeFilesAnswer(r.res, answer);
  const layout = o.bool('hash') ? '<hash>' : o.bool('size') ? '<cumulsize>' : (format ?? DEFAULT_FORMAT);
  let text = `${statText(layout, answer)}\n`;
  if (answer.WithLocality) {
    const share = answer.CumulativeSize === 0 ? 0 : (100 * (answer.SizeLocal ?? 0)) / answer.CumulativeSize;
    text += `Local: ${humanBytes(answer.SizeLocal ?? 0)} of ${humanBytes(answer.CumulativeSize)} (${share.toFixed(2)}%)\n`;
  }
  r.res.writeHead(200, {
    ...IPFS_CORS_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  r.res.end(text);
}

/** Kubo's text answer: the format's tokens replaced (unknown ones left as they are, as Kubo does). */
function statText(layout: string, s: FilesStatAnswer): string {
  const tokens: Record<string, string> = {
    '<hash>': s.Hash,
    '<size>': String(s.Size),
    '<cumulsize>': String(s.CumulativeSize),
    '<childs>': String(s.Blocks),
    '<type>': s.Type,
    '<mode-octal>': s.Mode ?? '0000',
    '<mtime-secs>': String(s.Mtime ?? 0),
    '<mtime-nsecs>': String(s.MtimeNsecs ?? 0),
  };
  return layout.replace(/<[a-z-]+>/g, (t) => tokens[t] ?? t);
}

/** go-humanize's `Bytes` (SI units: `71 B`, `491 kB`, `1.2 MB`). */
function humanBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  const e = Math.min(Math.floor(Math.log(n) / Math.log(1000)), units.length - 1);
  const value = Math.floor((n / 1000 ** e) * 10 + 0.5) / 10;
  return `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ${units[e]}`;
}

/** Blocks visited at most by `with-local` (a DAG larger than this is reported as not all local). */
const MAX_WALK = 1_000_000;

/** Kubo's `walkBlock`: the bytes of the DAG's blocks the node has (each visit counted), never fetching. */
async function walkLocal(
  upstream: IpfsUpstream,
  root: CID,
  signal: AbortSignal,
): Promise<{ complete: boolean; bytes: number }> {
  let bytes = 0;
  let complete = true;
  let visited = 0;
  const visit = async (cid: CID): Promise<void> => {
    if (++visited > MAX_WALK) {
      complete = false;
      return;
    }
    if (cid.multihash.code === 0x00) {
      bytes += cid.multihash.digest.byteLength;
      return;
    }
    const command = cid.code === dagPb.code ? 'block/get' : 'block/stat';
    const answer = await callUpstream(
      upstream,
      command,
      { arg: cid.toString(), offline: 'true' },
      { maxBytes: 4 * 1024 * 1024, signal },
    );
    if (answer.status !== 200) {
      complete = false;
      return;
    }
    if (command === 'block/stat') {
      bytes += Number((JSON.parse(answer.body.toString('utf8')) as { Size?: unknown }).Size ?? 0);
      return;
    }
    bytes += answer.body.byteLength;
    let links: dagPb.PBLink[];
    try {
      links = dagPb.decode(answer.body).Links;
    } catch {
      throw mfsError(`${cid} is not a valid dag-pb node`);
    }
    for (const l of links) await visit(l.Hash);
  };
  await visit(root);
  return { complete, bytes };
}
