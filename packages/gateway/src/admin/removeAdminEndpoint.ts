import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN_ENDPOINT_FILE } from './writeAdminEndpoint.js';

/**
 * Removes `<dataDir>/admin.json` (the gateway is stopping); no error when it is gone already.
 *
 * @example
 * cleanups.push(() => removeAdminEndpoint(dataDir));
 */
export async function removeAdminEndpoint(dataDir: string): Promise<void> {
  await rm(join(dataDir, ADMIN_ENDPOINT_FILE), { force: true });
}
