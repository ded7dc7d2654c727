import { join } from 'node:path';
import type { GatewayConfig } from '../config/types.js';
import { createEmbeddedKeyStore } from './embedded/createEmbeddedKeyStore.js';
import type { KeyStore } from './KeyStore.js';
import { createPostgresKeyStore } from './postgres/createPostgresKeyStore.js';

/** Opens the key store the config names. */
export async function openKeyStore(config: GatewayConfig, dataDir: string): Promise<KeyStore> {
  if (config.database.kind === 'embedded') return createEmbeddedKeyStore(join(dataDir, 'db'));
  return createPostgresKeyStore(config.database.url);
}
