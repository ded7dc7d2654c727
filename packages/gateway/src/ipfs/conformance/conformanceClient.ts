import { create } from 'kubo-rpc-client';
import { create as createV3 } from 'kubo-rpc-client-v3';

/** Where a conformance client sends its requests. */
export interface ConformanceTarget {
  /** The API URL, ending in `/api/v0`. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The client interface-ipfs-core's tests call: kubo-rpc-client 7 (what users run), with the
 * commands it dropped taken from kubo-rpc-client 3, the generation the suite was written for:
 * `object.new/get/put/data/links/stat`, `object.patch.setData/appendData`, `dns`. Neither has
 * `files.chmod` nor `files.touch` (the suite's tests of them are in the skip list).
 *
 * @example
 * const api = conformanceClient({ url: `${ipfsUrl}/api/v0`, headers: { authorization } });
 */
export function conformanceClient(target: ConformanceTarget): unknown {
  const options = { url: target.url, headers: { ...target.headers } };
  const v7 = create(options) as unknown as Record<string, unknown> & {
    object: { patch: Record<string, unknown> };
  };
  const v3 = createV3(options) as unknown as {
    object: Record<string, unknown> & { patch: Record<string, unknown> };
    dns: unknown;
  };
  const client = Object.assign(Object.create(Object.getPrototypeOf(v7) as object) as Record<string, unknown>, v7);
  client.object = { ...v3.object, patch: { ...v3.object.patch, ...v7.object.patch } };
  client.dns = v3.dns;
  return client;
}
