import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPinnedFetch } from '../edge/tls/createPinnedFetch.js';
import type { AdminTransport } from './adminClient.js';
import { ADMIN_ENDPOINT_FILE } from './writeAdminEndpoint.js';

/**
 * How the CLI reaches the running gateway of `dataDir`: over TLS, a fetch that trusts exactly
 * the certificate the gateway recorded in `<dataDir>/admin.json` (its `tls.cert`), so
 * `nodegate keys …` works against `https://127.0.0.1:PORT` with a self-signed certificate or
 * one made for another host name; undefined (plain `fetch`) without TLS or without the file.
 *
 * @example
 * const transport = await adminTransportOf(dataDir);
 * const admin = adminClient(url, token, transport ? { transport } : {});
 */
export async function adminTransportOf(dataDir: string): Promise<AdminTransport | undefined> {
  let saved: { tls?: { cert?: unknown } };
  try {
    saved = JSON.parse(await readFile(join(dataDir, ADMIN_ENDPOINT_FILE), 'utf8')) as typeof saved;
  } catch {
    return undefined; // readAdminEndpoint reports a missing or broken file
  }
  const cert = saved.tls?.cert;
  return typeof cert === 'string' ? createPinnedFetch(cert) : undefined;
}
