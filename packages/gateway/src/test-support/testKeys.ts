import type { KeySettings } from '../keys/KeySettings.js';
import type { RunningGateway } from '../main.js';
import { OPERATOR_ACCOUNT_ID } from '../store/sql.js';

/** A key created for a test: its id, its secret, and its JSON-RPC URL on a network. */
export interface TestKey {
  readonly key: string;
  readonly secret: string;
}

/** Calls the running gateway's admin API with the operator's token. */
export async function admin(gw: RunningGateway, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${gw.admin.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${gw.admin.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  if (!res.ok) throw new Error(`admin ${method} ${path} answered ${res.status}: ${text}`);
  return json;
}

/**
 * Creates a key through the admin API (as the CLI and the dashboard do), with a plan override
 * and settings when given.
 */
export async function createTestKey(
  gw: RunningGateway,
  options: { name?: string; plan?: string; settings?: Partial<KeySettings>; accountId?: string } = {},
): Promise<TestKey> {
  const created = await admin(gw, 'POST', `/accounts/${options.accountId ?? OPERATOR_ACCOUNT_ID}/keys`, {
    name: options.name ?? 'test',
    ...(options.plan ? { plan: options.plan } : {}),
  });
  if (options.settings) await admin(gw, 'PATCH', `/keys/${created.key}`, { settings: options.settings });
  return { key: created.key, secret: created.secret };
}

/** Changes a key's settings through the admin API. */
export async function setKeySettings(gw: RunningGateway, key: string, settings: Partial<KeySettings>): Promise<void> {
  await admin(gw, 'PATCH', `/keys/${key}`, { settings });
}
