import type { ApiKeyRecord, KeyStore } from '../store/KeyStore.js';
import { hashSecret, randomToken } from './secrets.js';

/** The result of creating a key: the record and the secret, which is shown this once. */
export interface CreatedApiKey {
  record: ApiKeyRecord;
  secret: string;
}

/**
 * Creates an API key with a random id and secret; stores only the secret's hash.
 *
 * @example
 * const { record, secret } = await createApiKey(store, { name: 'ci', plan: 'free' });
 */
export async function createApiKey(
  store: KeyStore,
  options: { name?: string; plan?: string; dev?: boolean } = {},
): Promise<CreatedApiKey> {
  const secret = randomToken();
  const record = await store.insert({
    key: randomToken(),
    secretHash: hashSecret(secret),
    name: options.name ?? '',
    plan: options.plan ?? 'free',
    dev: options.dev ?? false,
  });
  return { record, secret };
}
