import { IpfsCommandError } from './IpfsCommandError.js';
import { type EncodedDagPbNode, encodeDagPbNode } from './storeDagPbNodes.js';

/** UnixFS `Data` of an empty directory (Type: Directory). */
export const UNIXFS_DIR_DATA = Uint8Array.of(0x08, 0x01);

/**
 * `object/new[?arg=<template>]` (Kubo removed it in v0.28): a new dag-pb node, empty
 * (QmdfTbBq…) or from the `unixfs-dir` template (an empty UnixFS directory, QmUNLLsP…). Returns
 * the node to store; the answer is `{Hash}`.
 *
 * @example
 * const node = await objectNew(new URLSearchParams({ arg: 'unixfs-dir' }));
 */
export async function objectNew(params: URLSearchParams): Promise<EncodedDagPbNode> {
  const template = params.get('arg') ?? '';
  if (template === '') return encodeDagPbNode({ Links: [] });
  if (template === 'unixfs-dir') return encodeDagPbNode({ Data: UNIXFS_DIR_DATA, Links: [] });
  throw new IpfsCommandError(500, `template '${template}' not found`, 0);
}
