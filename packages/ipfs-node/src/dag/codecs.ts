import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import * as dagJose from 'dag-jose';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { IpfsNodeError } from '../errors.js';

/** An IPLD codec known to the node. */
export interface Codec {
  name: string;
  code: number;
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array): unknown;
}

const codecs: readonly Codec[] = [
  dagPb as unknown as Codec,
  dagCbor as unknown as Codec,
  dagJson as unknown as Codec,
  raw as unknown as Codec,
  json as unknown as Codec,
  // JOSE (signed or encrypted) objects: a JWS links to its payload's CID (Kubo supports it too)
  dagJose as unknown as Codec,
];

/** Finds a codec by multicodec name (`dag-cbor`, `dag-json`, `dag-pb`, `raw`, `json`, `dag-jose`) or code. */
export function codecOf(nameOrCode: string | number): Codec {
  const found = codecs.find((c) => c.name === nameOrCode || c.code === nameOrCode);
  if (found === undefined) {
    const label = typeof nameOrCode === 'number' ? `0x${nameOrCode.toString(16)}` : nameOrCode;
    throw new IpfsNodeError('command', `unsupported codec: ${label}`);
  }
  return found;
}
