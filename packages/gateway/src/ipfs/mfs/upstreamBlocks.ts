import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { equals } from 'multiformats/bytes';
import { callUpstream } from '../callUpstream.js';
import { expectUpstreamOk } from '../expectUpstreamOk.js';
import { IpfsCommandError } from '../IpfsCommandError.js';
import type { IpfsUpstream } from '../IpfsUpstream.js';
import { hashName, prefixOf } from './blockPrefix.js';

/** A block read from, or to be stored on, the upstream. */
export interface Block {
  readonly cid: CID;
  readonly bytes: Uint8Array;
}

/** Kubo's largest block is 2 MiB (block/put's limit); a little room for framing. */
const MAX_BLOCK = 4 * 1024 * 1024;
/** Blocks sent in one `block/put` request, at most this many bytes together. */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * Reads one block from the upstream (`block/get`); identity CIDs carry their block themselves.
 * The upstream's refusal (a block it does not have…) is thrown as its {@link IpfsCommandError}.
 *
 * @example
 * const bytes = await getBlock(upstream, cid, signal);
 */
export async function getBlock(upstream: IpfsUpstream, cid: CID, signal?: AbortSignal): Promise<Uint8Array> {
  if (cid.multihash.code === 0x00) return cid.multihash.digest;
  const opts = signal ? { maxBytes: MAX_BLOCK, signal } : { maxBytes: MAX_BLOCK };
  return new Uint8Array(expectUpstreamOk(await callUpstream(upstream, 'block/get', { arg: cid.toString() }, opts)));
}

/**
 * Stores blocks on the upstream with `block/put` (unpinned), several per request (one multipart
 * part each; blocks of one CID prefix per request), and checks that the node stored each under
 * the multihash computed here. Identity blocks need no storing.
 *
 * @example
 * await putBlocks(upstream, [{ cid, bytes }], signal);
 */
export async function putBlocks(upstream: IpfsUpstream, blocks: readonly Block[], signal?: AbortSignal): Promise<void> {
  const groups = new Map<string, Block[]>();
  for (const b of blocks) {
    if (b.cid.multihash.code === 0x00) continue;
    const p = prefixOf(b.cid);
    const id = `${p.version}/${p.codec}/${p.hash}`;
    const group = groups.get(id);
    if (group === undefined) groups.set(id, [b]);
    else group.push(b);
  }
  for (const group of groups.values()) {
    const first = group[0]!;
    const p = prefixOf(first.cid);
    const query: Record<string, string> =
      p.version === 0
        ? { format: 'v0' }
        : { 'cid-codec': p.codec === dagPb.code ? 'dag-pb' : 'raw', mhtype: hashName(p.hash) };
    let batch: Block[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await putBatch(upstream, query, batch, signal);
      batch = [];
      bytes = 0;
    };
    for (const b of group) {
      if (bytes + b.bytes.byteLength > MAX_BATCH_BYTES) await flush();
      batch.push(b);
      bytes += b.bytes.byteLength;
    }
    await flush();
  }
}

async function putBatch(
  upstream: IpfsUpstream,
  query: Record<string, string>,
  batch: readonly Block[],
  signal?: AbortSignal,
): Promise<void> {
  const boundary = `nodegate-mfs-${Math.random().toString(36).slice(2)}`;
  const parts: Uint8Array[] = [];
  batch.forEach((b, i) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="data${i === 0 ? '' : `-${i}`}"; filename="block"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      b.bytes,
      Buffer.from('\r\n'),
    );
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  const answer = await callUpstream(upstream, 'block/put', new URLSearchParams(query), {
    multipart: { body, boundary },
    maxBytes: 4 * 1024 * 1024,
    ...(signal ? { signal } : {}),
  });
  if (answer.status !== 200 || answer.streamError !== undefined) {
    expectUpstreamOk(answer);
  }
  const lines = answer.body
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (lines.length !== batch.length) {
    throw new IpfsCommandError(502, `upstream IPFS node stored ${lines.length} of ${batch.length} blocks`, 0);
  }
  lines.forEach((line, i) => {
    let stored: CID | undefined;
    try {
      stored = CID.parse(String((JSON.parse(line) as { Key?: unknown }).Key));
    } catch {
      stored = undefined;
    }
    if (stored === undefined || !equals(stored.multihash.bytes, batch[i]!.cid.multihash.bytes)) {
      throw new IpfsCommandError(502, 'upstream IPFS node stored a block under another hash', 0);
    }
  });
}
