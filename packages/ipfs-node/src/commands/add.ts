import type { Mtime } from 'ipfs-unixfs';
import { type ImportCandidate, type ImportResult, importer } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import type { MultipartFile } from '../http/multipartFiles.js';
import { pinRecursive } from '../pinning/pinRecursive.js';
import type { Repo } from '../repo/Repo.js';
import { type AddMetadata, addMetadata } from '../unixfs/addMetadata.js';
import { importerOptions } from '../unixfs/importerOptions.js';
import { markDefaultMode } from '../unixfs/explicitDefaultMode.js';
import { rewritingBlockstore } from '../unixfs/rewritingBlockstore.js';
import { Channel } from '../util/Channel.js';
import { readAhead } from '../util/readAhead.js';
import type { CommandContext, CommandResult } from './types.js';

/** Upload bytes buffered ahead of the importer (its block batches are 50 × 256 KiB). */
const READ_AHEAD_BYTES = 16 * 1024 * 1024;

/** Bytes between two progress values. */
const PROGRESS_STEP = 256 * 1024;

/** One `add` answer line. */
interface AddOutput {
  Name: string;
  Hash: string;
  Size: string;
  Mode?: string;
  Mtime?: number;
  MtimeNsecs?: number;
}

/** The metadata a part carried in the upload, by its (normalised) path. */
type SentMetadata = Map<string, { mode?: number; mtime?: Mtime }>;

/**
 * `add`: imports the multipart files and directories as UnixFS, streaming each part into the
 * importer as it arrives. Emits `{Name,Hash,Size}` per entry (and `{Name,Bytes}` with
 * `progress`); pins the top-level entries (or the wrapping directory) only once everything was
 * imported, so an interrupted add leaves no pin (its blocks are left for `repo/gc`).
 *
 * As Kubo: names are the normalised upload paths (`path.Clean`, no leading `/`), the wrapping
 * directory's is `""`; `hash` other than sha2-256 stores the DAG under that function (CIDv1);
 * `mode`/`mtime` store UnixFS 1.5 metadata on every entry, `preserve-mode`/`preserve-mtime` the
 * metadata each part carries, and an entry's answer reports the metadata its part carried
 * (`Mode` in octal, `Mtime`, `MtimeNsecs`).
 */
export async function add(ctx: CommandContext): Promise<CommandResult> {
  const metadata = addMetadata(ctx.options);
  const { importer: importOptions, hasher } = importerOptions(
    ctx.options,
    ctx.node.shardingThresholdBytes,
    metadata.requested,
  );
  const onlyHash = ctx.options.bool('only-hash');
  const pin = ctx.options.bool('pin') && !onlyHash;
  const progress = ctx.options.bool('progress');
  const silent = ctx.options.bool('silent');
  const quieter = ctx.options.bool('quieter');
  const pinName = ctx.options.string('pin-name') ?? '';
  const out = new Channel<unknown>();
  const writer = blockWriter(ctx.repo, onlyHash, ctx.signal);
  // the importer hashes with sha2-256 and leaves default modes out: rewrite what Kubo stores otherwise
  const rewrite =
    hasher.name !== 'sha2-256' || metadata.requested
      ? rewritingBlockstore(writer, hasher.name === 'sha2-256' ? undefined : hasher)
      : undefined;
  const store = rewrite ?? writer;
  const sent: SentMetadata = new Map();
  // the importer's CID and size, or what the rewriting store made of them
  const final = (entry: ImportResult): { cid: CID; size: bigint } => {
    const r = rewrite?.rewritten(entry.cid);
    return r === undefined ? entry : { cid: r.cid, size: BigInt(r.cumulativeSize) };
  };

  const run = async () => {
    const results: ImportResult[] = [];
    const candidates = toCandidates(ctx.files(), metadata, sent, progress && !silent ? (v) => out.push(v) : undefined);
    const wrapper = importOptions.wrapWithDirectory;
    for await (const entry of importer(candidates, store, importOptions)) {
      results.push(entry);
      if (!silent && !quieter) out.push(toOutput(entry, final(entry), ctx.cidString, sent));
    }
    ctx.signal.throwIfAborted();
    const last = results.at(-1);
    if (quieter && !silent && last !== undefined) out.push(toOutput(last, final(last), ctx.cidString, sent));
    if (!pin) return;
    const roots = wrapper
      ? last === undefined
        ? []
        : [final(last).cid]
      : results.filter((r) => !(r.path ?? '').includes('/')).map((r) => final(r).cid);
    for (const cid of unique(roots)) {
      await pinRecursive(ctx.repo, cid, { name: pinName, verify: false, signal: ctx.signal });
    }
  };
  ctx.repo.gcLock.shared(run).then(
    () => out.end(),
    (err: unknown) => out.fail(err),
  );
  return { kind: 'values', values: out };
}

function toOutput(
  entry: ImportResult,
  stored: { cid: CID; size: bigint },
  cidString: (cid: CID) => string,
  sent: SentMetadata,
): AddOutput {
  const hash = cidString(stored.cid);
  // Kubo names an unnamed file by its CID; an unnamed directory (the wrapper) is ""
  const path = entry.path ?? '';
  const name = path === '' && !isUnnamedDirectory(entry) ? hash : path;
  const output: AddOutput = { Name: name, Hash: hash, Size: stored.size.toString() };
  const meta = sent.get(path);
  if (meta?.mode !== undefined && meta.mode !== 0) output.Mode = `0${meta.mode.toString(8)}`;
  if (meta?.mtime !== undefined && meta.mtime.secs > 0n) {
    output.Mtime = Number(meta.mtime.secs);
    const nsecs = meta.mtime.nsecs ?? 0;
    if (nsecs > 0) output.MtimeNsecs = nsecs;
  }
  return output;
}

/** A directory without a name (the one `wrap-with-directory` adds): the importer gives it an empty path. */
function isUnnamedDirectory(entry: ImportResult): boolean {
  return (entry.path ?? '') === '' && entry.unixfs?.isDirectory() === true;
}

function unique(cids: CID[]): CID[] {
  const seen = new Set<string>();
  return cids.filter((c) => {
    const k = c.toString();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The metadata stored on an entry: the `mode`/`mtime` options, or with `preserve-*` what its
 * part carried (a default mode is marked so that it is written out, as Kubo does).
 */
function storedMetadata(file: MultipartFile, m: AddMetadata): { mode?: number; mtime?: Mtime } {
  const out: { mode?: number; mtime?: Mtime } = {};
  const mode = m.preserveMode && file.mode !== undefined && file.mode !== 0 ? file.mode : m.mode;
  const mtime = m.preserveMtime && file.mtime !== undefined ? file.mtime : m.mtime;
  if (mode !== undefined && file.type !== 'symlink') out.mode = mode;
  if (mtime !== undefined) out.mtime = mtime;
  return markDefaultMode(out, file.type === 'directory');
}

async function* toCandidates(
  files: AsyncIterable<MultipartFile>,
  metadata: AddMetadata,
  sent: SentMetadata,
  onProgress: ((value: { Name: string; Bytes: number }) => void) | undefined,
): AsyncGenerator<ImportCandidate> {
  for await (const file of files) {
    if (file.mode !== undefined || file.mtime !== undefined) {
      sent.set(file.path, {
        ...(file.mode === undefined ? {} : { mode: file.mode }),
        ...(file.mtime === undefined ? {} : { mtime: file.mtime }),
      });
    }
    const meta = storedMetadata(file, metadata);
    if (file.type === 'directory') {
      yield { path: file.path, ...meta };
      continue;
    }
    if (file.type === 'symlink') {
      const parts: Uint8Array[] = [];
      for await (const chunk of file.content) parts.push(chunk);
      yield { path: file.path, link: Buffer.concat(parts).toString('utf8'), ...meta } as ImportCandidate;
      continue;
    }
    // the importer takes blocks in batches: keep the upload flowing meanwhile (bounded)
    const content = readAhead(file.content, READ_AHEAD_BYTES);
    yield {
      path: file.path,
      content: onProgress === undefined ? content : counted(file.path, content, onProgress),
      ...meta,
    };
  }
}

async function* counted(
  name: string,
  content: AsyncIterable<Uint8Array>,
  onProgress: (value: { Name: string; Bytes: number }) => void,
): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  let reported = 0;
  for await (const chunk of content) {
    bytes += chunk.byteLength;
    if (bytes - reported >= PROGRESS_STEP) {
      reported = bytes;
      onProgress({ Name: name, Bytes: bytes });
    }
    yield chunk;
  }
  onProgress({ Name: name, Bytes: bytes });
}

function blockWriter(repo: Repo, onlyHash: boolean, signal: AbortSignal) {
  return {
    async put(cid: CID, bytes: unknown): Promise<CID> {
      signal.throwIfAborted();
      if (!onlyHash) await repo.blocks.put(cid, bytes as Uint8Array, signal);
      return cid;
    },
  };
}
