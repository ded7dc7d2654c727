import type { Role } from '../accounts/AccountStore.js';
import type { KeySettings } from '../keys/KeySettings.js';
import type { Plan } from '../plans/Plan.js';
import { OPERATOR_ACCOUNT_ID } from '../store/sql.js';
import { AdminApiError } from './AdminApiError.js';
import type { AccountView, CreatedInvitationView, CreatedKeyView, KeyView } from './adminSchemas.js';
import { ADMIN_API_PREFIX } from './registerAdminApi.js';

export type { AccountView, CreatedInvitationView, CreatedKeyView, KeyView, MemberView } from './adminSchemas.js';

/** How the client sends a request: `fetch` by default; the CLI's offline path passes `app.inject`. */
export type AdminTransport = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<Response>;

/** A change to a key; only the fields given change (`settings` fields too). */
export interface KeyChange {
  name?: string;
  /** Operator only; null removes the override. */
  plan?: string | null;
  settings?: Partial<KeySettings>;
}

/** Typed calls to the admin REST API with an admin token (operator level). */
export interface AdminClient {
  /** Every key (or one account's), oldest first. */
  listKeys(options?: { accountId?: string }): Promise<KeyView[]>;
  /** Creates a key (default: in the operator account); the answer holds the secret, shown this once. */
  createKey(input?: { accountId?: string; name?: string; plan?: string | null }): Promise<CreatedKeyView>;
  getKey(key: string): Promise<KeyView>;
  updateKey(key: string, change: KeyChange): Promise<KeyView>;
  /** Revokes a key (at once, on every gateway); AdminApiError 409 when it already is. */
  revokeKey(key: string): Promise<KeyView>;
  listAccounts(): Promise<AccountView[]>;
  createAccount(input: { name: string; plan?: string }): Promise<AccountView>;
  updateAccount(id: string, change: { name?: string; plan?: string }): Promise<AccountView>;
  /**
   * Invites `email` into an account; the answer holds the one-time invitation link (`inviteUrl`)
   * to give the invitee, who accepts it with their own password. Nobody sets another's password.
   */
  inviteMember(accountId: string, input: { email: string; role: Role }): Promise<CreatedInvitationView>;
  plans(): Promise<Plan[]>;
  /** A new one-time dashboard sign-in link for the operator (15 minutes). */
  createSignInLink(): Promise<{ url: string; expiresAt: string }>;
  /** Sets the operator's dashboard password (the current one is not needed); signs out their sessions. */
  setOperatorPassword(newPassword: string): Promise<{ ok: boolean; sessionsEnded: number }>;
  /** Any route: `path` below `/admin/api/v1`. */
  request<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/**
 * A client of a gateway's admin API at `url` (the gateway's base URL, e.g. the `url` of
 * `<dataDir>/admin.json`), authenticated by an admin token (`<dataDir>/admin-token`). Failures
 * throw {@link AdminApiError} (status 0 when the gateway cannot be reached). The token is sent
 * only in the Authorization header and never appears in errors.
 *
 * @example
 * const admin = adminClient(gw.url, await readFile(join(dataDir, 'admin-token'), 'utf8'));
 * const { key, secret } = await admin.createKey({ name: 'ci' });
 * await admin.updateKey(key, { settings: { allowedOrigins: ['https://app.example.com'] } });
 */
export function adminClient(url: string, token: string, options: { transport?: AdminTransport } = {}): AdminClient {
  const base = `${url.replace(/\/$/, '')}${ADMIN_API_PREFIX}`;
  const transport: AdminTransport = options.transport ?? ((u, init) => fetch(u, init));
  const bearer = token.trim();

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${bearer}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await transport(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new AdminApiError(0, 'unreachable', `cannot reach the nodegate admin API at ${url}`);
    }
    const text = await res.text();
    let value: unknown;
    try {
      value = text ? JSON.parse(text) : undefined;
    } catch {
      throw new AdminApiError(
        res.status,
        'bad_answer',
        `the admin API answered ${res.status} with a body that is not JSON`,
      );
    }
    if (!res.ok) {
      const err = (value as { error?: { code?: string; message?: string; field?: string } } | undefined)?.error;
      throw new AdminApiError(
        res.status,
        err?.code ?? 'error',
        err?.message ?? `the admin API answered ${res.status}`,
        ...(err?.field ? [err.field] : []),
      );
    }
    return value as T;
  }
  const enc = encodeURIComponent;

  return {
    listKeys: (o = {}) => request('GET', o.accountId ? `/keys?account=${enc(o.accountId)}` : '/keys'),
    createKey: (input = {}) =>
      request('POST', `/accounts/${enc(input.accountId ?? OPERATOR_ACCOUNT_ID)}/keys`, {
        name: input.name ?? '',
        ...(input.plan !== undefined ? { plan: input.plan } : {}),
      }),
    getKey: (key) => request('GET', `/keys/${enc(key)}`),
    updateKey: (key, change) => request('PATCH', `/keys/${enc(key)}`, change),
    revokeKey: (key) => request('DELETE', `/keys/${enc(key)}`),
    listAccounts: () => request('GET', '/accounts'),
    createAccount: (input) => request('POST', '/accounts', input),
    updateAccount: (id, change) => request('PATCH', `/accounts/${enc(id)}`, change),
    inviteMember: (accountId, input) => request('POST', `/accounts/${enc(accountId)}/members`, input),
    plans: () => request('GET', '/plans'),
    createSignInLink: () => request('POST', '/operator/sign-in-links'),
    setOperatorPassword: (newPassword) => request('PUT', '/operator/password', { newPassword }),
    request,
  };
}
