import type { KeySettings } from './KeySettings.js';
import { OPERATOR_ACCOUNT_ID } from '../store/sql.js';
import type { ApiKeyRecord, KeyStore } from '../store/KeyStore.js';
import { hashSecret, randomToken } from './secrets.js';

/** The result of creating a key: the record and the secret, which is shown this once. */
export interface CreatedApiKey {
  record: ApiKeyRecord;
  secret: string;
}

/** What a new key is created with. */
export interface CreateApiKeyOptions {
  name?: string;
  /** The account that holds the key (default: the operator account). */
  accountId?: string;
  /** A plan override; omitted or null: the key uses its account's plan. */
  plan?: string | null;
  dev?: boolean;
  settings?: KeySettings;
}

/**
 * Creates an API key with a random id and secret; stores only the secret's hash.
 *
 * @example
 * const { record, secret } = await createApiKey(store, { name: 'ci', accountId: account.id });
 * const dev = await createApiKey(store, { name: 'development key', plan: 'dev', dev: true });
 */
export async function createApiKey(store: KeyStore, options: CreateApiKeyOptions = {}): Promise<CreatedApiKey> {
  const secret = randomToken();
  const record = await store.insert({
    key: randomToken(),
    secretHash: hashSecret(secret),
    name: options.name ?? '',
    accountId: options.accountId ?? OPERATOR_ACCOUNT_ID,
    plan: options.plan ?? null,
    dev: options.dev ?? false,
    ...(options.settings ? { settings: options.settings } : {}),
  });
  return { record, secret };
}
