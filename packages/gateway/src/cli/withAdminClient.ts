import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ADMIN_TOKEN_FILE } from '../accounts/ensureOperator.js';
import { AdminApiError } from '../admin/AdminApiError.js';
import { type AdminClient, adminClient } from '../admin/adminClient.js';
import { adminTransportOf } from '../admin/adminTransportOf.js';
import { openLocalAdminApi } from '../admin/openLocalAdminApi.js';
import { readAdminEndpoint } from '../admin/readAdminEndpoint.js';
import { embeddedConfig } from '../config/embeddedConfig.js';
import { loadConfigFile } from '../config/loadConfigFile.js';

/** How a CLI command finds the admin API (`--data-dir`, `--config`, `--admin-url`, the token). */
export interface AdminAccessFlags {
  config?: string | undefined;
  dataDir?: string | undefined;
  /** The admin API's base URL (default: `<dataDir>/admin.json`, else in-process). */
  adminUrl?: string | undefined;
  /** The admin token (default: `<dataDir>/admin-token`); the CLI reads NODEGATE_ADMIN_TOKEN into it. */
  adminToken?: string | undefined;
}

/**
 * Runs `use` with a client of the admin API, authenticated by the admin token: the gateway at
 * `--admin-url`, else the one running on the data directory (`<dataDir>/admin.json`; over TLS,
 * trusting exactly the certificate it recorded there), else, when none runs, the same API
 * served in this process over the database (a stale admin.json left by a killed gateway counts
 * as none: nothing was sent).
 *
 * @example
 * await withAdminClient({ dataDir: '.nodegate' }, (admin) => admin.listKeys());
 */
export async function withAdminClient<T>(
  flags: AdminAccessFlags,
  use: (client: AdminClient) => Promise<T>,
): Promise<T> {
  const config = flags.config
    ? await loadConfigFile(flags.config)
    : embeddedConfig(flags.dataDir ? { dataDir: flags.dataDir } : {});
  const dataDir = resolve(flags.dataDir ?? config.dataDir);
  const token = async () => {
    if (flags.adminToken) return flags.adminToken;
    const saved = await readFile(join(dataDir, ADMIN_TOKEN_FILE), 'utf8').catch(() => '');
    if (!saved.trim())
      throw new Error(`no admin token: set NODEGATE_ADMIN_TOKEN or start the gateway once on ${dataDir}`);
    return saved.trim();
  };

  if (flags.adminUrl) return use(adminClient(flags.adminUrl, await token()));
  const running = await readAdminEndpoint(dataDir);
  if (running) {
    try {
      // over TLS: exactly the certificate the gateway recorded beside its URL
      const transport = await adminTransportOf(dataDir);
      return await use(adminClient(running, await token(), transport ? { transport } : {}));
    } catch (err) {
      // a gateway that stopped without cleaning up: nothing was sent, serve it here instead
      if (!(err instanceof AdminApiError && err.code === 'unreachable')) throw err;
    }
  }
  const local = await openLocalAdminApi(config, dataDir);
  try {
    return await use(local.client);
  } finally {
    await local.close();
  }
}
