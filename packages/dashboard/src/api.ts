import type {
  Account,
  AccountPlan,
  AccountStorage,
  ApiKey,
  Bucket,
  CreatedInvitation,
  CreatedKey,
  DashboardConfig,
  ErrorCount,
  Invitation,
  InvitationLookup,
  KeySettings,
  Member,
  MethodUsage,
  Plan,
  RequestDetail,
  RequestRow,
  Restrictions,
  Role,
  Session,
  Storage,
  Usage,
} from './types';
import type { Gateway, GatewayToken } from './gatewayTypes';

/** A refusal from the admin API: its message is safe to show; `field` names the input it is about. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | undefined,
  ) {
    super(message);
  }
}

const BASE = '/admin/api/v1';
let csrfToken: string | null = null;

/** Remembers the CSRF token of the session (from sign-in or `GET /sessions/current`). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the session ends under the app (401): it shows the sign-in screen. */
let onUnauthenticated: () => void = () => {};
export function whenSignedOut(handler: () => void): void {
  onUnauthenticated = handler;
}

async function call<T>(method: string, path: string, body?: unknown, opts: { quiet401?: boolean } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; field?: string } } | undefined)?.error;
    if (res.status === 401 && !opts.quiet401) onUnauthenticated();
    throw new ApiError(res.status, err?.code ?? 'error', err?.message ?? `HTTP ${res.status}`, err?.field);
  }
  return data as T;
}

const q = (params: Record<string, string | number | boolean | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') s.set(k, String(v));
  const text = s.toString();
  return text ? `?${text}` : '';
};

export interface UsageScope {
  key?: string | undefined;
  account?: string | undefined;
  from: number;
  to: number;
}

/** The admin REST API, one function per route the dashboard uses. */
export const api = {
  config: async (): Promise<DashboardConfig> => {
    const res = await fetch('/dashboard/config.json', { credentials: 'same-origin' });
    if (!res.ok) throw new ApiError(res.status, 'config', 'the gateway did not give its endpoints', undefined);
    return (await res.json()) as DashboardConfig;
  },
  currentSession: () => call<Session>('GET', '/sessions/current', undefined, { quiet401: true }),
  signIn: (body: { email: string; password: string } | { signInToken: string }) =>
    call<Session>('POST', '/sessions', body, { quiet401: true }),
  signOut: () => call<{ ok: boolean }>('DELETE', '/sessions/current'),
  /** Sets a first password (within 10 minutes of signing in) or changes it (with the current one). */
  changePassword: (body: { currentPassword?: string; newPassword: string }) =>
    call<{ ok: boolean }>('PUT', '/users/me/password', body),
  keys: (accountId: string) => call<ApiKey[]>('GET', `/accounts/${encodeURIComponent(accountId)}/keys`),
  key: (key: string) => call<ApiKey>('GET', `/keys/${key}`),
  createKey: (accountId: string, name: string) =>
    call<CreatedKey>('POST', `/accounts/${encodeURIComponent(accountId)}/keys`, { name }),
  renameKey: (key: string, name: string) => call<ApiKey>('PATCH', `/keys/${key}`, { name }),
  updateSettings: (key: string, settings: Partial<KeySettings>) => call<ApiKey>('PATCH', `/keys/${key}`, { settings }),
  revokeKey: (key: string) => call<ApiKey>('DELETE', `/keys/${key}`),
  usage: (scope: UsageScope, bucket: Bucket, byNetwork: boolean) =>
    call<Usage>('GET', `/usage${q({ ...scope, bucket, byNetwork })}`),
  topMethods: (scope: UsageScope, limit = 10) =>
    call<MethodUsage[]>('GET', `/usage/top-methods${q({ ...scope, limit })}`),
  errors: (scope: UsageScope) => call<ErrorCount[]>('GET', `/usage/errors${q({ ...scope })}`),
  requests: (key: string, filter: { limit?: number; method?: string; status?: number | undefined }) =>
    call<RequestRow[]>('GET', `/keys/${key}/requests${q(filter)}`),
  request: (key: string, requestId: string) =>
    call<RequestDetail>('GET', `/keys/${key}/requests/${encodeURIComponent(requestId)}`),
  storage: (key: string) => call<Storage>('GET', `/keys/${key}/storage`),
  accountStorage: (accountId: string) =>
    call<AccountStorage>('GET', `/accounts/${encodeURIComponent(accountId)}/storage`),
  restrictions: () => call<Restrictions>('GET', '/restrictions'),
  plan: (accountId: string) => call<AccountPlan>('GET', `/accounts/${encodeURIComponent(accountId)}/plan`),
  members: (accountId: string) => call<Member[]>('GET', `/accounts/${encodeURIComponent(accountId)}/members`),
  inviteMember: (accountId: string, body: { email: string; role: Role }) =>
    call<CreatedInvitation>('POST', `/accounts/${encodeURIComponent(accountId)}/members`, body),
  invitations: (accountId: string) =>
    call<Invitation[]>('GET', `/accounts/${encodeURIComponent(accountId)}/invitations`),
  withdrawInvitation: (accountId: string, id: string) =>
    call<{ ok: boolean }>('DELETE', `/accounts/${encodeURIComponent(accountId)}/invitations/${encodeURIComponent(id)}`),
  lookupInvitation: (token: string) =>
    call<InvitationLookup>('POST', '/invitations/lookup', { token }, { quiet401: true }),
  acceptInvitation: (body: { token: string; password?: string }) =>
    call<Session>('POST', '/invitations/accept', body, { quiet401: true }),
  setRole: (accountId: string, userId: string, role: Role) =>
    call<Member>('PATCH', `/accounts/${encodeURIComponent(accountId)}/members/${encodeURIComponent(userId)}`, { role }),
  removeMember: (accountId: string, userId: string) =>
    call<{ ok: boolean }>('DELETE', `/accounts/${encodeURIComponent(accountId)}/members/${encodeURIComponent(userId)}`),
  accounts: () => call<Account[]>('GET', '/accounts'),
  plans: () => call<Plan[]>('GET', '/plans'),
  gateways: (accountId: string) => call<Gateway[]>('GET', `/accounts/${encodeURIComponent(accountId)}/gateways`),
  createGateway: (accountId: string, name: string) =>
    call<Gateway>('POST', `/accounts/${encodeURIComponent(accountId)}/gateways`, { name }),
  updateGateway: (id: string, change: { mode?: Gateway['mode']; allowedOrigins?: string[] }) =>
    call<Gateway>('PATCH', `/gateways/${encodeURIComponent(id)}`, change),
  deleteGateway: (id: string) => call<Gateway>('DELETE', `/gateways/${encodeURIComponent(id)}`),
  gatewayTokens: (id: string) => call<GatewayToken[]>('GET', `/gateways/${encodeURIComponent(id)}/tokens`),
  createGatewayToken: (id: string, name: string) =>
    call<GatewayToken & { token: string }>('POST', `/gateways/${encodeURIComponent(id)}/tokens`, { name }),
  revokeGatewayToken: (id: string, tokenId: string) =>
    call<{ ok: boolean }>('DELETE', `/gateways/${encodeURIComponent(id)}/tokens/${encodeURIComponent(tokenId)}`),
};
