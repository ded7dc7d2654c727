import { chmod, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** File in the data directory telling the CLI where the running gateway's admin API is. */
export const ADMIN_ENDPOINT_FILE = 'admin.json';

/**
 * Records where the running gateway answers the admin API: `<dataDir>/admin.json`
 * `{ "url": "http://127.0.0.1:PORT" }` (mode 0600, written atomically). Call once the gateway
 * listens; `removeAdminEndpoint` at stop. With TLS, `tlsCert` is the certificate it serves (PEM,
 * public): the CLI trusts exactly that certificate on this URL (see `adminTransportOf`), and a
 * SIGHUP reload writes the file again with the new one.
 *
 * @example
 * await writeAdminEndpoint(dataDir, gw.url);
 */
export async function writeAdminEndpoint(dataDir: string, url: string, tlsCert?: string): Promise<void> {
  const file = join(dataDir, ADMIN_ENDPOINT_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  const body = tlsCert === undefined ? { url } : { url, tls: { cert: tlsCert } };
  await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}
