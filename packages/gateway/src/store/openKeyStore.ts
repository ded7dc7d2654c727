import type { GatewayConfig } from '../config/types.js';
import type { KeyStore } from './KeyStore.js';
import { openDatabase } from './openDatabase.js';

/**
 * @deprecated Use `openDatabase(config, dataDir)`, which opens keys, accounts and the raw
 * query over one connection. Kept so the composition root builds until it switches over;
 * closing the returned store closes the database.
 *
 * @example
 * const keys = await openKeyStore(config, dataDir);
 */
export async function openKeyStore(config: GatewayConfig, dataDir: string): Promise<KeyStore> {
  return (await openDatabase(config, dataDir)).keys;
}
