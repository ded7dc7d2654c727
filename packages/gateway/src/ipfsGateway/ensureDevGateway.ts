import { newId } from './access/gatewayTokens.js';
import type { GatewayRecord } from './GatewayRecord.js';
import type { GatewayStore } from './store/GatewayStore.js';

/** The name the development account's gateway is created with. */
export const DEV_GATEWAY_NAME = 'dev';

/**
 * The development account's dedicated gateway: its oldest gateway, or, when it has none (first
 * start), a new restricted one named `dev` (`dev-<4 hex>` if another account took `dev`). Every
 * start calls it, so a data directory always has one to print.
 *
 * @example
 * const gw = await ensureDevGateway(store, devKeyRecord.accountId); // gw.name === 'dev'
 */
export async function ensureDevGateway(store: GatewayStore, accountId: string): Promise<GatewayRecord> {
  const existing = await store.list(accountId);
  if (existing[0]) return existing[0];
  for (const name of [DEV_GATEWAY_NAME, newId('dev-', 2), newId('dev-', 4)]) {
    const created = await store.insert({
      id: newId('gw_', 12),
      name,
      accountId,
      mode: 'restricted',
      allowedOrigins: [],
    });
    if (created) return created;
  }
  throw new Error('the development gateway could not be created: every name tried is taken');
}
