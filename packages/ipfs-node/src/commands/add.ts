import { type ImportCandidate, type ImportResult, importer } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import type { MultipartFile } from '../http/multipartFiles.js';
import { pinRecursive } from '../pinning/pinRecursive.js';
import type { Repo } from '../repo/Repo.js';
import { importerOptions } from '../unixfs/importerOptions.js';
import { Channel } from '../util/Channel.js';
import { readAhead } from '../util/readAhead.js';
import type { CommandContext, CommandResult } from './types.js';

/** Upload bytes buffered ahead of the importer (its block batches are 50 × 256 KiB). */
const READ_AHEAD_BYTES = 16 * 1024 * 1024;

/** Bytes between two progress values. */
const PROGRESS_STEP = 256 * 1024;

/**
 * `add`: imports the multipart files and directories as UnixFS, streaming each part into the
 * importer as it arrives. Emits `{Name,Hash,Size}` per entry (and `{Name,Bytes}` with
 * `progress`); pins the top-level entries (or the wrapping directory) only once everything was
 * imported, so an interrupted add leaves no pin (its blocks are left for `repo/gc`).
 */
export async function add(ctx: CommandContext): Promise<CommandResult> {
  const importOptions = importerOptions(ctx.options, ctx.node.shardingThresholdBytes);
  const onlyHash = ctx.options.bool('only-hash');
  const pin = ctx.options.bool('pin') && !onlyHash;
  const progress = ctx.options.bool('progress');
  const silent = ctx.options.bool('silent');
  const quieter = ctx.options.bool('quieter');
  const pinName = ctx.options.string('pin-name') ?? '';
  const out = new Channel<unknown>();
  const store = blockWriter(ctx.repo, onlyHash, ctx.signal);

  const run = async () => {
    const results: ImportResult[] = [];
    const candidates = toCandidates(ctx.files(), progress && !silent ? (v) => out.push(v) : undefined);
    for await (const entry of importer(candidates, store, importOptions)) {
      results.push(entry);
      if (!silent && !quieter) out.push(toOutput(entry, ctx.cidString));
    }
    ctx.signal.throwIfAborted();
    const last = results.at(-1);
    if (quieter && !silent && last !== undefined) out.push(toOutput(last, ctx.cidString));
    if (!pin) return;
    const roots = importOptions.wrapWithDirectory
      ? last === undefined
        ? []
        : [last.cid]
      : results.filter((r) => !(r.path ?? '').includes('/')).map((r) => r.cid);
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

function toOutput(entry: ImportResult, cidString: (cid: CID) => string): { Name: string; Hash: string; Size: string } {
  const hash = cidString(entry.cid);
  const name = entry.path === undefined || entry.path === '' ? hash : entry.path;
  return { Name: name, Hash: hash, Size: entry.size.toString() };
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

async function* toCandidates(
  files: AsyncIterable<MultipartFile>,
  onProgress: ((value: { Name: string; Bytes: number }) => void) | undefined,
): AsyncGenerator<ImportCandidate> {
  for await (const file of files) {
    if (file.type === 'directory') {
      yield { path: file.path };
      continue;
    }
    if (file.type === 'symlink') {
      const parts: Uint8Array[] = [];
      for await (const chunk of file.content) parts.push(chunk);
      yield { path: file.path, link: Buffer.concat(parts).toString('utf8') };
      continue;
    }
    // the importer takes blocks in batches: keep the upload flowing meanwhile (bounded)
    const content = readAhead(file.content, READ_AHEAD_BYTES);
    yield { path: file.path, content: onProgress === undefined ? content : counted(file.path, content, onProgress) };
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
