import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { callUpstream } from './callUpstream.js';
import { expectUpstreamOk } from './expectUpstreamOk.js';
import { firstMultipartPart } from './firstMultipartPart.js';
import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { type ObjectLinkJson, objectLinkJson } from './objectLinkJson.js';

/** What object/put stored: its answer, and the size of the block (for usage accounting). */
export interface ObjectPutResult {
  readonly answer: { Hash: string; Links: ObjectLinkJson[] };
  readonly storedBytes: number;
}

/**
 * `object/put` (Kubo removed it in v0.28): one multipart file holding a node as JSON
 * `{Data, Links:[{Name,Hash,Size}]}` (`inputenc=json`, the default; `datafieldenc=text|base64`)
 * or as encoded dag-pb (`inputenc=protobuf`); stored with the upstream's `block/put` as a dag-pb
 * CIDv0, pinned when `pin=true`. Answers `{Hash, Links}`.
 *
 * @example
 * await objectPut(upstream, new URLSearchParams({ pin: 'true' }), body, req.headers['content-type'])
 */
export async function objectPut(
  upstream: IpfsUpstream,
  params: URLSearchParams,
  body: Buffer,
  contentType: string | undefined,
  signal?: AbortSignal,
): Promise<ObjectPutResult> {
  const input = firstMultipartPart(body, contentType);
  const inputEnc = params.get('inputenc') ?? 'json';
  const dataEnc = params.get('datafieldenc') ?? 'text';
  let node: dagPb.PBNode;
  if (inputEnc === 'protobuf') {
    try {
      node = dagPb.decode(input);
    } catch (err) {
      throw new IpfsCommandError(400, `invalid dag-pb input: ${(err as Error).message}`, 1);
    }
  } else if (inputEnc === 'json') {
    if (dataEnc !== 'text' && dataEnc !== 'base64') {
      throw new IpfsCommandError(400, `unknown data field encoding "${dataEnc}": use text or base64`, 1);
    }
    node = nodeFromJson(input, dataEnc);
  } else {
    throw new IpfsCommandError(400, `unknown input encoding "${inputEnc}": use json or protobuf`, 1);
  }
  const block = dagPb.encode(dagPb.prepare(node));
  const query: Record<string, string> = { format: 'v0', 'cid-codec': 'dag-pb', mhtype: 'sha2-256' };
  if (params.get('pin') === 'true') query.pin = 'true';
  const answer = expectUpstreamOk(
    await callUpstream(
      upstream,
      'block/put',
      query,
      signal ? { file: block, maxBytes: 64 * 1024, signal } : { file: block, maxBytes: 64 * 1024 },
    ),
  );
  const first = answer.toString('utf8').trim().split('\n')[0] ?? '';
  const { Key } = JSON.parse(first) as { Key: string };
  const stored = dagPb.decode(block);
  return { answer: { Hash: Key, Links: stored.Links.map(objectLinkJson) }, storedBytes: block.byteLength };
}

function nodeFromJson(input: Buffer, dataEnc: 'text' | 'base64'): dagPb.PBNode {
  let parsed: { Data?: unknown; Links?: unknown };
  try {
    parsed = JSON.parse(input.toString('utf8')) as typeof parsed;
  } catch {
    throw new IpfsCommandError(400, 'invalid JSON input: expected {"Data":…,"Links":[…]}', 1);
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new IpfsCommandError(400, 'invalid JSON input: expected {"Data":…,"Links":[…]}', 1);
  }
  let data: Uint8Array | undefined;
  if (parsed.Data !== undefined && parsed.Data !== null) {
    if (typeof parsed.Data !== 'string') throw new IpfsCommandError(400, 'Data must be a string', 1);
    data = dataEnc === 'base64' ? Buffer.from(parsed.Data, 'base64') : Buffer.from(parsed.Data, 'utf8');
  }
  if (parsed.Links !== undefined && parsed.Links !== null && !Array.isArray(parsed.Links)) {
    throw new IpfsCommandError(400, 'Links must be a list', 1);
  }
  const links = ((parsed.Links as unknown[] | undefined) ?? []).map((raw, i): dagPb.PBLink => {
    const l = raw as { Name?: unknown; Hash?: unknown; Size?: unknown };
    const hash = typeof l.Hash === 'object' && l.Hash !== null ? (l.Hash as { '/'?: unknown })['/'] : l.Hash;
    if (typeof hash !== 'string') throw new IpfsCommandError(400, `Links[${i}].Hash must be a CID`, 1);
    let cid: CID;
    try {
      cid = CID.parse(hash);
    } catch {
      throw new IpfsCommandError(400, `Links[${i}].Hash is not a valid CID`, 1);
    }
    const link: dagPb.PBLink = { Hash: cid, Name: typeof l.Name === 'string' ? l.Name : '' };
    if (typeof l.Size === 'number' && Number.isSafeInteger(l.Size) && l.Size >= 0) link.Tsize = l.Size;
    return link;
  });
  return data === undefined ? { Links: links } : { Data: data, Links: links };
}
