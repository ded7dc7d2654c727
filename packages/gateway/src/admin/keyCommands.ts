import { createApiKey } from '../keys/createApiKey.js';
import type { KeyAuthenticator } from '../keys/createKeyAuthenticator.js';
import type { ApiKeyRecord, KeyStore } from '../store/KeyStore.js';

/** A key as shown to operators: never the secret hash. */
export interface KeyView {
  key: string;
  name: string;
  plan: string;
  dev: boolean;
  createdAt: string;
  revokedAt: string | null;
}

export function keyView(r: ApiKeyRecord): KeyView {
  return {
    key: r.key,
    name: r.name,
    plan: r.plan ?? r.accountPlan,
    dev: r.dev,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
  };
}

/**
 * @deprecated Replaced by the admin REST API (`registerAdminApi`, `adminClient`); kept only until
 * main.ts stops importing it.
 *
 * The key operations behind `nodegate keys …`, run either in the CLI process (gateway
 * stopped) or inside the running gateway via its admin socket (so its cache stays exact).
 */
export function keyCommands(store: KeyStore, auth?: KeyAuthenticator) {
  return {
    async create(input: { name?: string; plan?: string }): Promise<KeyView & { secret: string }> {
      const { record, secret } = await createApiKey(store, input);
      auth?.forget(record.key);
      return { ...keyView(record), secret };
    },
    async list(): Promise<KeyView[]> {
      return (await store.list()).map(keyView);
    },
    async revoke(key: string): Promise<boolean> {
      const done = await store.revoke(key);
      auth?.forget(key);
      return done;
    },
  };
}

export type KeyCommands = ReturnType<typeof keyCommands>;
