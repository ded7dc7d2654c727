// The admin API's shapes, as the dashboard reads them (see /admin/api/v1/openapi.json).

export type Role = 'owner' | 'admin' | 'viewer';

export interface User {
  id: string;
  email: string;
  operator: boolean;
  hasPassword: boolean;
  createdAt: string;
}
export interface Member extends User {
  role: Role;
}
/** A pending invitation (the account's owners see these; never the token). */
export interface Invitation {
  id: string;
  accountId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}
/** A new invitation: its token and link are shown this once, to give the invitee. */
export interface CreatedInvitation extends Invitation {
  token: string;
  inviteUrl: string;
}
/** What an invitation is for, and how it is accepted (`POST /invitations/lookup`). */
export interface InvitationLookup {
  accountName: string;
  email: string;
  role: Role;
  expiresAt: string;
  /** session: signed in as the invitee; password: theirs; new-password: choose one; sign-in: sign in first. */
  accept: 'session' | 'password' | 'new-password' | 'sign-in';
}
export interface Account {
  id: string;
  name: string;
  plan: string;
  createdAt: string;
  role: Role | null;
}
export interface Session {
  user: User | null;
  operator: boolean;
  csrfToken: string | null;
  accounts: Account[];
}
export interface JwtKey {
  name: string;
  pem: string;
}
export interface KeySettings {
  allowedOrigins: string[];
  allowedUserAgents: string[];
  allowedContracts: string[];
  allowedMethods: string[];
  requireSecret: boolean;
  jwtKeys: JwtKey[];
  requireJwt: boolean;
  creditsPerSecond: number | null;
  creditsPerDay: number | null;
}
export interface ApiKey {
  key: string;
  name: string;
  accountId: string;
  plan: string | null;
  effectivePlan: string;
  dev: boolean;
  createdAt: string;
  revokedAt: string | null;
  settings: KeySettings;
}
export interface CreatedKey extends ApiKey {
  secret: string;
}
export interface Plan {
  name: string;
  creditsPerSecond: number;
  creditsPerDay: number;
  failoverProtection: boolean;
  maxKeys: number;
}
export interface AccountPlan {
  plan: Plan;
  activeKeys: number;
  usedToday: number | null;
}
export type Bucket = '1m' | '5m' | '15m' | '1h' | '1d';
export interface Totals {
  requests: number;
  credits: number;
  errors: number;
  latencyMsAvg: number;
  latencyMsMax: number;
  bytesIn: number;
  bytesOut: number;
}
export interface UsagePoint extends Totals {
  at: string;
  network?: string;
}
export interface Usage {
  from: string;
  to: string;
  bucket: Bucket;
  series: UsagePoint[];
  totals: Totals;
}
export interface MethodUsage extends Totals {
  method: string;
  network: string;
}
export interface ErrorCount {
  status: number;
  errorCode: number | null;
  count: number;
}
export interface RequestRow {
  requestId: string;
  at: string;
  key: string;
  network: string;
  method: string;
  transport: string;
  status: number;
  errorCode: number | null;
  refusal: string | null;
  latencyMs: number;
  credits: number;
  bytesIn: number;
  bytesOut: number;
  upstream: string | null;
  failover: 'partner' | null;
}
/** `GET /keys/{key}/requests/{requestId}`: every call of one request (a batch has several). */
export interface RequestDetail {
  requestId: string;
  calls: RequestRow[];
}
/** `GET /keys/{key}/storage`: `maxStoredBytes` is this key's own quota (ipfs.maxStoredBytesPerKey). */
export interface Storage {
  key: string;
  storedBytes: number;
  maxStoredBytes: number | null;
}
/** `GET /accounts/{id}/storage`: the active keys together; `maxStoredBytes` = per-key quota × active keys. */
export interface AccountStorage {
  accountId: string;
  storedBytes: number;
  activeKeys: number;
  maxStoredBytesPerKey: number | null;
  maxStoredBytes: number | null;
  keys: { key: string; name: string; storedBytes: number }[];
}
/** A method the contract allowlist checks (`GET /restrictions`, from the gateway's method tables). */
export interface ContractCheckedMethod {
  method: string;
  aliases: string[];
  family: string;
  params: string[];
  /** It reads the given address's own state: a plain wallet address must be on the list. */
  readsAccount: boolean;
  wsOnly: boolean;
  devOnly: boolean;
}
export interface Restrictions {
  contracts: {
    methods: ContractCheckedMethod[];
    refusedPrefixes: { prefix: string; family: string; devOnly: boolean }[];
  };
}

/** `GET /dashboard/config.json`: where the networks are served. */
export interface DashboardConfig {
  networks: Record<string, { family: 'eth' | 'starknet' | string; http: string; ws: string }>;
  ipfs: string | null;
  adminUrl: string;
}
