import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ADMIN_ENDPOINT_FILE } from './writeAdminEndpoint.js';

/**
 * The running gateway's admin URL from `<dataDir>/admin.json`, or undefined when there is
 * none (no gateway has it open). A file that is there but unreadable is an error.
 *
 * @example
 * const url = await readAdminEndpoint(dataDir); // 'http://127.0.0.1:8550' | undefined
 */
export async function readAdminEndpoint(dataDir: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(join(dataDir, ADMIN_ENDPOINT_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const url = (JSON.parse(text) as { url?: unknown }).url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
    throw new Error(`${join(dataDir, ADMIN_ENDPOINT_FILE)}: expected { "url": "http://host:port" }`);
  }
  return url;
}
