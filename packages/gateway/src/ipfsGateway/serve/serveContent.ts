import { GatewayError } from '../../errors/GatewayError.js';
import { fetchBlock } from '../upstream/fetchBlock.js';
import type { ContentRequest } from './ContentRequest.js';
import { RAW } from './loadNode.js';
import type { ResponseFormat } from './negotiateFormat.js';
import { DAG_PB } from './parseRootCid.js';
import { resolveContentPath } from './resolveContentPath.js';
import { serveBlockAs } from './serveBlockAs.js';
import { serveCar } from './serveCar.js';
import { serveDirectory } from './serveDirectory.js';
import { openWholeFile } from './openWholeFile.js';
import { serveFile } from './serveFile.js';

/** How long `Cache-Control: only-if-cached` waits for the root block before answering 412. */
const ONLY_IF_CACHED_MS = 1_000;

/** The codecs a deserialized answer sends as they are, by multicodec code (0x0129, 0x71, 0x0200, 0x51). */
const CODEC_FORMAT = new Map<number, 'dag-json' | 'dag-cbor' | 'json' | 'cbor'>([
  [0x0129, 'dag-json'],
  [0x71, 'dag-cbor'],
  [0x0200, 'json'],
  [0x51, 'cbor'],
]);

const notImplemented = (message: string) => new GatewayError('INVALID_REQUEST', message, { httpStatus: 501 });

/**
 * Answers an admitted content request in the negotiated format: resolves the content path over
 * the node's blocks (404 for a path the DAG does not hold, 504 past the deadline), then a raw
 * block, a codec form, a CAR, or the deserialized content (a UnixFS file, a directory's
 * `index.html` or listing, a JSON/CBOR block as its type). `Service-Worker: script` is refused
 * (400) on a root without its trailing slash; `Cache-Control: only-if-cached` answers 412 when
 * the root block is not at hand within a second. A plain read of a root not seen before opens its
 * `cat` at once ({@link openWholeFile}): a cold file costs the node one request.
 *
 * @example
 * await serveContent(cr, { kind: 'deserialized' });
 */
export async function serveContent(cr: ContentRequest, format: ResponseFormat): Promise<void> {
  if (cr.req.headers['service-worker'] === 'script' && cr.segments.length === 0 && !cr.trailingSlash) {
    throw new GatewayError(
      'INVALID_REQUEST',
      'a service worker may be registered under /ipfs/<cid>/ (with the trailing slash) only',
      { httpStatus: 400 },
    );
  }
  if (/\bonly-if-cached\b/i.test(cr.req.headers['cache-control'] ?? '')) {
    const signal = AbortSignal.any([cr.client, AbortSignal.timeout(ONLY_IF_CACHED_MS)]);
    const cached = await fetchBlock(cr.upstream, cr.root, signal).then(
      () => true,
      () => false,
    );
    if (!cached) {
      throw new GatewayError('INVALID_REQUEST', 'the root block is not cached here (only-if-cached)', {
        httpStatus: 412,
      });
    }
  }
  if (format.kind === 'deserialized') {
    // a plain read of a root not seen yet: its cat at once, the root node read only if it is no file
    const opened = await openWholeFile(cr);
    if (opened !== undefined) return serveFile(cr, opened, [cr.root], undefined);
  }
  const resolution = await resolveContentPath(cr.upstream, cr.root, cr.segments, cr.find);
  const node = resolution.terminal;
  switch (format.kind) {
    case 'raw':
      await serveBlockAs(cr, node, 'raw');
      return;
    case 'codec':
      await serveBlockAs(cr, node, format.codec);
      return;
    case 'car':
      await serveCar(cr, resolution, format.car);
      return;
    case 'deserialized':
      break;
  }
  if (node.cid.code === RAW) {
    await serveFile(cr, node, resolution.roots, resolution.name);
    return;
  }
  if (node.cid.code === DAG_PB) {
    switch (node.unixfs?.type) {
      case 'file':
      case 'raw':
        await serveFile(cr, node, resolution.roots, resolution.name);
        return;
      case 'directory':
      case 'hamt-sharded-directory':
        await serveDirectory(cr, node, resolution.roots);
        return;
      case 'symlink':
        throw notImplemented('UnixFS symlinks are not followed by this gateway; ask ?format=raw for the node');
      default:
        throw notImplemented('this dag-pb node is not UnixFS: ask ?format=raw, ?format=car or ?format=dag-json');
    }
  }
  const codec = CODEC_FORMAT.get(node.cid.code);
  if (codec === undefined) {
    throw notImplemented(`codec 0x${node.cid.code.toString(16)} is not deserialized here: ask ?format=raw`);
  }
  await serveBlockAs(cr, node, codec);
}
