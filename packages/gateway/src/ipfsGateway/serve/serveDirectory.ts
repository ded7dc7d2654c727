import type { CID } from 'multiformats/cid';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { baseHeaders, type ContentRequest, IMMUTABLE, matchesIfNoneMatch, writeNotModified } from './ContentRequest.js';
import { type LoadedNode, loadNode } from './loadNode.js';
import { type ListingEntry, LISTING_VERSION, renderDirectoryListing } from './renderDirectoryListing.js';
import { findInShard, padLength } from './resolveContentPath.js';
import { serveFile } from './serveFile.js';

/**
 * Answers a UnixFS directory: without a trailing `/` a 301 to the same URL with one (query kept:
 * relative links and service-worker scopes need it); with `index.html` that file (path gateway
 * spec: the listing is then never generated); otherwise a generated HTML listing (names escaped,
 * at most `maxListingEntries` entries, a HAMT-sharded directory's shards walked for them), whose
 * ETag names the listing's version.
 *
 * @example
 * await serveDirectory(cr, node, roots);
 */
export async function serveDirectory(cr: ContentRequest, node: LoadedNode, roots: readonly CID[]): Promise<void> {
  if (!cr.trailingSlash) {
    cr.res
      .writeHead(301, { ...baseHeaders(cr), location: `${cr.urlPath}/${cr.rawQuery}`, 'content-length': '0' })
      .end();
    return;
  }
  const sharded = node.unixfs?.type === 'hamt-sharded-directory';
  const index = sharded
    ? (await findInShard(cr.upstream, node, 'index.html', cr.find))?.cid
    : node.links.find((l) => l.Name === 'index.html')?.Hash;
  if (index !== undefined) {
    const file = await loadNode(cr.upstream, index, cr.find);
    if (file.unixfs?.type !== 'directory' && file.unixfs?.type !== 'hamt-sharded-directory') {
      return serveFile(cr, file, [...roots, index], 'index.html');
    }
  }
  const etag = `"DirIndex-${LISTING_VERSION}_CID-${node.cid.toString()}"`;
  if (matchesIfNoneMatch(cr.req.headers['if-none-match'], etag)) return writeNotModified(cr, etag);
  const { entries, truncated } = sharded
    ? await listShard(cr.upstream, node, cr.maxListingEntries, cr.find)
    : {
        entries: node.links.slice(0, cr.maxListingEntries).map((l) => entryOf(l.Name ?? '', l.Hash, l.Tsize)),
        truncated: node.links.length > cr.maxListingEntries,
      };
  const html = Buffer.from(
    renderDirectoryListing({
      contentPath: `${cr.contentPath.replace(/\/$/, '')}/`,
      cid: node.cid.toString(),
      entries,
      atRoot: cr.segments.length === 0,
      truncated,
    }),
  );
  cr.res.writeHead(200, {
    ...baseHeaders(cr),
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(html.byteLength),
    etag,
    'cache-control': IMMUTABLE,
    'x-ipfs-roots': roots.map(String).join(','),
  });
  if (!cr.head) await cr.body.write(html);
  cr.res.end();
}

const entryOf = (name: string, cid: CID, size: number | undefined): ListingEntry => ({
  name,
  cid: cid.toString(),
  size,
});

/** The entries of a HAMT-sharded directory (its shards walked depth-first), at most `max`. */
async function listShard(
  upstream: IpfsUpstream,
  shard: LoadedNode,
  max: number,
  signal: AbortSignal,
): Promise<{ entries: ListingEntry[]; truncated: boolean }> {
  const entries: ListingEntry[] = [];
  const walk = async (node: LoadedNode): Promise<boolean> => {
    const pad = padLength(node);
    for (const link of node.links) {
      const name = link.Name ?? '';
      if (name.length > pad) {
        if (entries.length >= max) return true;
        entries.push(entryOf(name.slice(pad), link.Hash, link.Tsize));
      } else if (await walk(await loadNode(upstream, link.Hash, signal))) return true;
    }
    return false;
  };
  const truncated = await walk(shard);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, truncated };
}
