import { IpfsCommandError } from './IpfsCommandError.js';
import type { IpfsUpstream } from './IpfsUpstream.js';
import { type ObjectLinkJson, objectLinkJson } from './objectLinkJson.js';
import { readDagPbNode } from './readDagPbNode.js';

/**
 * `object/get?arg=<cid>[&data-encoding=text|base64]` (Kubo removed it in v0.28): the dag-pb
 * node as `{Links:[{Name,Hash,Size}],Data}`. `text` (the default) decodes Data as UTF-8, with
 * U+FFFD for invalid bytes, as Go's JSON encoder does.
 *
 * @example
 * await objectGet(upstream, { arg: 'QmWSgS…', 'data-encoding': 'base64' })
 */
export async function objectGet(
  upstream: IpfsUpstream,
  params: URLSearchParams,
  signal?: AbortSignal,
): Promise<{ Links: ObjectLinkJson[]; Data: string }> {
  const arg = requiredArg(params);
  const encoding = params.get('encoding') ?? 'json';
  if (encoding !== 'json') throw new IpfsCommandError(400, `unsupported encoding "${encoding}": use json`, 1);
  const dataEncoding = params.get('data-encoding') ?? params.get('dataEncoding') ?? 'text';
  if (dataEncoding !== 'text' && dataEncoding !== 'base64') {
    throw new IpfsCommandError(400, `unknown data field encoding "${dataEncoding}": use text or base64`, 1);
  }
  const { node } = await readDagPbNode(upstream, arg, signal);
  const data = node.Data ?? new Uint8Array(0);
  return {
    Links: node.Links.map(objectLinkJson),
    Data: dataEncoding === 'base64' ? Buffer.from(data).toString('base64') : new TextDecoder().decode(data),
  };
}

/** The first `arg` (Kubo: `argument "key" is required`). */
export function requiredArg(params: URLSearchParams): string {
  const arg = params.get('arg');
  if (arg === null || arg === '') throw new IpfsCommandError(400, 'argument "key" is required', 1);
  return arg;
}
