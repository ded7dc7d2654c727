import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UsageBucket, UsageQueries, UsageScope } from '../usage/UsageStore.js';
import type { AdminDeps } from './AdminDeps.js';
import { AdminError } from './AdminError.js';
import {
  AccountParams,
  AccountStorageResponse,
  ErrorBody,
  ErrorsQuery,
  ErrorsResponse,
  KeyParams,
  RequestParams,
  RequestResponse,
  RequestsQuery,
  RequestsResponse,
  StorageResponse,
  TopMethodsQuery,
  TopMethodsResponse,
  UsageQuery,
  UsageResponse,
} from './adminSchemas.js';
import { authorizeAccount, callerOf } from './authorizeAccount.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const DAY_MS = 24 * 3600_000;
/** The most rows one request can hold in the log (a batch's calls; the log keeps fewer per key). */
const MAX_BATCH_ROWS = 1_000;
/** Stored-bytes reads in flight for one account's storage. */
const STORAGE_READS_AT_ONCE = 8;

interface ScopeQuery {
  key?: string;
  account?: string;
  from?: string;
  to?: string;
}

function parseTime(value: string | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  const t = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(t))
    throw new AdminError(400, 'invalid_request', `${field}: expected epoch ms or an ISO time`, field);
  return t;
}

function bucketFor(spanMs: number): UsageBucket {
  if (spanMs <= 2 * 3600_000) return '1m';
  if (spanMs <= 12 * 3600_000) return '5m';
  if (spanMs <= 2 * DAY_MS) return '15m';
  if (spanMs <= 14 * DAY_MS) return '1h';
  return '1d';
}

/**
 * Recorded usage: `GET /usage`, `/usage/top-methods`, `/usage/errors` (by key or account;
 * everything for the operator), `GET /keys/{key}/requests` and one of them,
 * `GET /keys/{key}/requests/{requestId}` (404 when the key's log holds no such request: another
 * key's or account's request id is not found). The caller must be a member of the key's or
 * account's account. 404 when the gateway records no usage.
 * `GET /keys/{key}/storage` gives the bytes the key stores on IPFS (the sum of its pins) and its
 * own quota; `GET /accounts/{id}/storage` the account's keys together, with the per-key quota and
 * what it adds up to.
 */
export function registerUsageRoutes(api: FastifyInstance, deps: AdminDeps): void {
  const usage = (): UsageQueries => {
    if (!deps.usage) throw new AdminError(404, 'not_found', 'this gateway records no usage');
    return deps.usage;
  };
  /** The key, when the caller may read it; 404 otherwise (another account's key is not revealed). */
  const readableKey = async (req: FastifyRequest, key: string) => {
    const record = await deps.keys.find(key);
    const allowed =
      record &&
      (await authorizeAccount(deps, req, record.accountId, 'read').then(
        () => true,
        () => false,
      ));
    if (!record || !allowed) throw new AdminError(404, 'not_found', 'key not found');
    return record;
  };
  const scopeOf = async (req: FastifyRequest): Promise<UsageScope> => {
    const q = req.query as ScopeQuery;
    const to = parseTime(q.to, 'to', Date.now());
    const from = parseTime(q.from, 'from', to - DAY_MS);
    if (from >= to) throw new AdminError(400, 'invalid_request', 'from: must be before to', 'from');
    if (q.key !== undefined && q.account !== undefined) {
      throw new AdminError(400, 'invalid_request', 'account: give key or account, not both', 'account');
    }
    if (q.key !== undefined) {
      await readableKey(req, q.key);
      return { key: q.key, from, to };
    }
    if (q.account !== undefined) {
      await authorizeAccount(deps, req, q.account, 'read');
      return { accountId: q.account, from, to };
    }
    if (!callerOf(req).operator)
      throw new AdminError(400, 'invalid_request', 'account: give key or account', 'account');
    return { from, to };
  };

  api.get(
    '/usage',
    {
      schema: {
        summary: 'Usage series and totals',
        querystring: UsageQuery,
        response: { 200: UsageResponse, ...errors },
      },
    },
    async (req) => {
      const store = usage();
      const scope = await scopeOf(req);
      const q = req.query as { bucket?: UsageBucket; byNetwork?: boolean };
      const bucket = q.bucket ?? bucketFor(scope.to - scope.from);
      const [series, totals] = await Promise.all([
        store.series(scope, bucket, { byNetwork: q.byNetwork ?? false }),
        store.totals(scope),
      ]);
      return { from: new Date(scope.from).toISOString(), to: new Date(scope.to).toISOString(), bucket, series, totals };
    },
  );

  api.get(
    '/usage/top-methods',
    {
      schema: {
        summary: 'The most used methods',
        querystring: TopMethodsQuery,
        response: { 200: TopMethodsResponse, ...errors },
      },
    },
    async (req) => {
      const store = usage();
      const scope = await scopeOf(req);
      return store.topMethods(scope, (req.query as { limit?: number }).limit ?? 10);
    },
  );

  api.get(
    '/usage/errors',
    {
      schema: {
        summary: 'Answers by HTTP status and JSON-RPC error code',
        querystring: ErrorsQuery,
        response: { 200: ErrorsResponse, ...errors },
      },
    },
    async (req) => {
      const store = usage();
      return store.errorsByStatus(await scopeOf(req));
    },
  );

  api.get(
    '/keys/:key/requests',
    {
      schema: {
        summary: "A key's recent requests, newest first",
        params: KeyParams,
        querystring: RequestsQuery,
        response: { 200: RequestsResponse, ...errors },
      },
    },
    async (req) => {
      const store = usage();
      const { key } = req.params as { key: string };
      await readableKey(req, key);
      const q = req.query as { limit?: number; method?: string; status?: number };
      return store.recentRequests(key, { limit: q.limit ?? 50, method: q.method, status: q.status });
    },
  );

  api.get(
    '/keys/:key/requests/:requestId',
    {
      schema: {
        summary: "One of a key's recent requests: every call it held (a batch has several)",
        params: RequestParams,
        response: { 200: RequestResponse, ...errors },
      },
    },
    async (req) => {
      const store = usage();
      const { key, requestId } = req.params as { key: string; requestId: string };
      await readableKey(req, key);
      // the log keeps at most a few hundred rows per key; a batch's calls share the request id
      const calls = await store.recentRequests(key, { limit: MAX_BATCH_ROWS, requestId });
      if (calls.length === 0) throw new AdminError(404, 'not_found', 'no such request in the log of this key');
      return { requestId, calls: calls.reverse() };
    },
  );

  api.get(
    '/accounts/:id/storage',
    {
      schema: {
        summary: "Bytes an account's keys store on IPFS, the per-key quota and what it adds up to",
        params: AccountParams,
        response: { 200: AccountStorageResponse, ...errors },
      },
    },
    async (req) => {
      const { id } = req.params as { id: string };
      await authorizeAccount(deps, req, id, 'read');
      const active = (await deps.keys.list(id)).filter((k) => k.revokedAt === null);
      // a few keys at a time: an account may hold a thousand keys, the pin store one connection
      const keys: { key: string; name: string; storedBytes: number }[] = [];
      for (let i = 0; i < active.length; i += STORAGE_READS_AT_ONCE) {
        const part = active.slice(i, i + STORAGE_READS_AT_ONCE);
        const stored = await Promise.all(part.map((k) => (deps.storedBytes ? deps.storedBytes(k.key) : 0)));
        for (const [n, k] of part.entries()) keys.push({ key: k.key, name: k.name, storedBytes: stored[n]! });
      }
      const perKey = deps.maxStoredBytesPerKey ?? null;
      return {
        accountId: id,
        storedBytes: keys.reduce((sum, k) => sum + k.storedBytes, 0),
        activeKeys: active.length,
        maxStoredBytesPerKey: perKey,
        maxStoredBytes: perKey === null ? null : perKey * active.length,
        keys,
      };
    },
  );

  api.get(
    '/keys/:key/storage',
    {
      schema: {
        summary: 'Bytes a key makes the IPFS node store (pins, and unpinned bytes until collected) and its quota',
        params: KeyParams,
        response: { 200: StorageResponse, ...errors },
      },
    },
    async (req) => {
      const { key } = req.params as { key: string };
      await readableKey(req, key);
      return {
        key,
        storedBytes: deps.storedBytes ? await deps.storedBytes(key) : 0,
        maxStoredBytes: deps.maxStoredBytesPerKey ?? null,
      };
    },
  );
}
