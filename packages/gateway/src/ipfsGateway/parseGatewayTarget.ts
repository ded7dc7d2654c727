import type { CID } from 'multiformats/cid';
import { GatewayError } from '../errors/GatewayError.js';
import type { GatewayMatch } from './matchGatewayRequest.js';
import { parseRootCid } from './serve/parseRootCid.js';

/** What a gateway request names: the content root, the path below it, and how it was written. */
export interface GatewayTarget {
  readonly root: CID;
  /** The root as the request wrote it (a subdomain label, or the path's CID text). */
  readonly rootText: string;
  /** Decoded path segments below the root. */
  readonly segments: readonly string[];
  readonly trailingSlash: boolean;
}

const notFound = (message: string) => new GatewayError('NOT_FOUND', message, { httpStatus: 404 });

/**
 * The content a gateway request names. Path and host forms take `/ipfs/<cid>[/<path>]` (anything
 * else is 404, `/ipns/…` 501: dedicated gateways serve immutable content only); the subdomain form
 * takes the root from its host label and the whole path below it. A root that is not a CID is a
 * 400 (the path gateway spec); `rest` is already decoded and normalised by the edge.
 *
 * @example
 * parseGatewayTarget({ form: 'path', name: 'dev', base: '/ipfs-gateway/dev', rest: '/ipfs/bafkqaaa/' })
 * // { root: CID(bafkqaaa), rootText: 'bafkqaaa', segments: [], trailingSlash: true }
 */
export function parseGatewayTarget(match: GatewayMatch): GatewayTarget {
  let rootText: string;
  let below: string;
  if (match.form === 'subdomain') {
    rootText = match.label;
    below = match.rest;
  } else {
    const m = /^\/(ipfs|ipns)(?:\/([^/]*)(\/.*)?)?$/.exec(match.rest);
    if (!m) throw notFound('not found: dedicated gateways serve /ipfs/<cid>[/<path>]');
    if (m[1] === 'ipns') {
      throw new GatewayError('INVALID_REQUEST', 'IPNS is not served by dedicated gateways: use /ipfs/<cid>', {
        httpStatus: 501,
      });
    }
    if (!m[2]) throw notFound('not found: give a CID, /ipfs/<cid>[/<path>]');
    rootText = m[2];
    below = m[3] ?? '';
  }
  const root = parseRootCid(rootText);
  if (root === undefined) {
    throw new GatewayError('INVALID_REQUEST', `invalid CID: ${JSON.stringify(rootText.slice(0, 100))} is not a CID`, {
      httpStatus: 400,
    });
  }
  const segments = below.split('/').filter((s) => s !== '');
  return {
    root,
    rootText,
    segments,
    trailingSlash: below.endsWith('/') || (below === '' && match.form === 'subdomain'),
  };
}
