import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AdminDeps } from '../../admin/AdminDeps.js';
import { AdminError } from '../../admin/AdminError.js';
import { AccountParams, ErrorBody, RequestsResponse } from '../../admin/adminSchemas.js';
import { type AccountAccess, authorizeAccount, callerOf } from '../../admin/authorizeAccount.js';
import { validateKeySettings } from '../../admin/validateKeySettings.js';
import { DEFAULT_PLAN_NAME } from '../../plans/Plan.js';
import { hashGatewayToken, newGatewayToken, newId } from '../access/gatewayTokens.js';
import type { IpfsGatewaySettings } from '../config/IpfsGatewaySettings.js';
import {
  type GatewayMode,
  type GatewayRecord,
  MAX_GATEWAYS_PER_ACCOUNT,
  MAX_TOKENS_PER_GATEWAY,
} from '../GatewayRecord.js';
import type { GatewayStore } from '../store/GatewayStore.js';
import {
  CreatedGatewayTokenSchema,
  CreateGatewayBody,
  CreateGatewayTokenBody,
  GatewayParams,
  GatewayRequestsQuery,
  GatewaySchema,
  GatewayTokenParams,
  GatewayTokenSchema,
  type GatewayView,
  PatchGatewayBody,
} from './gatewaySchemas.js';

/** What the gateway routes need besides the admin API's own dependencies. */
export interface GatewayAdminDeps {
  readonly store: GatewayStore;
  readonly settings: IpfsGatewaySettings;
  /** The gateway's public base URL (`http://127.0.0.1:8550`), for the URLs a view shows. */
  readonly baseUrl: () => string;
  /** Bytes an account's gateways served today; absent where the gateways are not served (the CLI offline). */
  readonly bandwidthToday?: ((accountId: string) => Promise<number>) | undefined;
  /** Called after every change to a gateway or its tokens: serving caches drop it at once. */
  readonly onGatewayChanged?: ((name: string) => void) | undefined;
}

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Dedicated gateways in the admin API: `GET /gateways` (every gateway the caller can see),
 * `GET|POST /accounts/{id}/gateways`, `GET|PATCH|DELETE /gateways/{gatewayId}`, tokens
 * (`GET|POST /gateways/{gatewayId}/tokens`, `DELETE /gateways/{gatewayId}/tokens/{tokenId}`;
 * a token is shown once), and `GET /gateways/{gatewayId}/requests` (its recent requests). Members
 * read; owners and admins change (as with keys); strangers get 404. A view shows the gateway's
 * URLs and its account's bandwidth today against the plan's `gatewayBandwidthPerDay`.
 *
 * @example
 * registerGatewayRoutes(api, deps, { store, settings, baseUrl: () => 'http://127.0.0.1:8550' });
 */
export function registerGatewayRoutes(api: FastifyInstance, deps: AdminDeps, gw: GatewayAdminDeps): void {
  const planOf = async (accountId: string) => {
    const account = await deps.accounts.findAccount(accountId);
    return deps.plans[account?.plan ?? DEFAULT_PLAN_NAME] ?? deps.plans[DEFAULT_PLAN_NAME];
  };
  const view = async (g: GatewayRecord): Promise<GatewayView> => {
    const base = gw.baseUrl().replace(/\/$/, '');
    const u = new URL(base);
    const port = u.port ? `:${u.port}` : '';
    const domain = gw.settings.domain;
    const plan = await planOf(g.accountId);
    return {
      id: g.id,
      name: g.name,
      accountId: g.accountId,
      mode: g.mode,
      allowedOrigins: [...g.allowedOrigins],
      createdAt: g.createdAt.toISOString(),
      urls: {
        path: `${base}${gw.settings.pathPrefix}/${g.name}`,
        host: domain ? `${u.protocol}//${g.name}.ipfs.${domain}${port}` : null,
        subdomain: domain ? `${u.protocol}//{cid}.ipfs.${g.name}.ipfs.${domain}${port}` : null,
      },
      bandwidthToday: gw.bandwidthToday ? await gw.bandwidthToday(g.accountId) : null,
      bandwidthPerDay: plan?.gatewayBandwidthPerDay ?? null,
    };
  };
  /** The gateway when the caller may do `access` in its account (404 for strangers). */
  const authorizeGateway = async (req: FastifyRequest, access: AccountAccess) => {
    const record = await gw.store.find((req.params as { gatewayId: string }).gatewayId);
    if (!record) throw new AdminError(404, 'not_found', 'gateway not found');
    try {
      await authorizeAccount(deps, req, record.accountId, access);
    } catch (err) {
      if (err instanceof AdminError && err.statusCode === 404)
        throw new AdminError(404, 'not_found', 'gateway not found');
      throw err;
    }
    return record;
  };
  const origins = (list: readonly string[] | undefined): string[] | undefined => {
    if (list === undefined) return undefined;
    const check = validateKeySettings({ allowedOrigins: list });
    if (!check.ok) {
      throw new AdminError(
        400,
        'invalid_request',
        check.problem.message.replace('settings.', ''),
        check.problem.field.replace('settings.', ''),
      );
    }
    return [...(check.settings.allowedOrigins ?? [])];
  };
  const changed = (name: string) => gw.onGatewayChanged?.(name);

  api.get(
    '/gateways',
    {
      schema: {
        summary: 'Every dedicated gateway the caller can see (the operator: all)',
        response: { 200: Type.Array(GatewaySchema), ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      if (caller.operator) return Promise.all((await gw.store.list()).map(view));
      const mine = caller.user ? await deps.accounts.accountsOf(caller.user.id) : [];
      const lists = await Promise.all(mine.map((a) => gw.store.list(a.id)));
      return Promise.all(lists.flat().map(view));
    },
  );

  api.get(
    '/accounts/:id/gateways',
    { schema: { params: AccountParams, response: { 200: Type.Array(GatewaySchema), ...errors } } },
    async (req) => {
      const { account } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'read');
      return Promise.all((await gw.store.list(account.id)).map(view));
    },
  );

  api.post(
    '/accounts/:id/gateways',
    {
      schema: {
        summary: 'Create a dedicated gateway (restricted by default): its name is its host label and its path',
        params: AccountParams,
        body: CreateGatewayBody,
        response: { 201: GatewaySchema, ...errors },
      },
    },
    async (req, reply) => {
      const { account } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'keys');
      const body = req.body as { name: string; mode?: GatewayMode; allowedOrigins?: string[] };
      if ((await gw.store.list(account.id)).length >= MAX_GATEWAYS_PER_ACCOUNT) {
        throw new AdminError(
          403,
          'gateway_limit',
          `an account may have ${MAX_GATEWAYS_PER_ACCOUNT} gateways; delete one first`,
        );
      }
      const record = await gw.store.insert({
        id: newId('gw_', 12),
        name: body.name,
        accountId: account.id,
        mode: body.mode ?? 'restricted',
        allowedOrigins: origins(body.allowedOrigins) ?? [],
      });
      if (!record) throw new AdminError(409, 'conflict', `the gateway name "${body.name}" is taken`, 'name');
      changed(record.name);
      return reply.status(201).send(await view(record));
    },
  );

  api.get(
    '/gateways/:gatewayId',
    { schema: { params: GatewayParams, response: { 200: GatewaySchema, ...errors } } },
    async (req) => view(await authorizeGateway(req, 'read')),
  );

  api.patch(
    '/gateways/:gatewayId',
    {
      schema: {
        summary: 'Change its mode or allowed origins; only the fields given change',
        params: GatewayParams,
        body: PatchGatewayBody,
        response: { 200: GatewaySchema, ...errors },
      },
    },
    async (req) => {
      const record = await authorizeGateway(req, 'keys');
      const body = req.body as { mode?: GatewayMode; allowedOrigins?: string[] };
      const allowedOrigins = origins(body.allowedOrigins);
      const updated = await gw.store.update(record.id, {
        ...(body.mode !== undefined ? { mode: body.mode } : {}),
        ...(allowedOrigins !== undefined ? { allowedOrigins } : {}),
      });
      if (!updated) throw new AdminError(404, 'not_found', 'gateway not found');
      changed(record.name);
      return view(updated);
    },
  );

  api.delete(
    '/gateways/:gatewayId',
    {
      schema: {
        summary: 'Delete a gateway and its tokens (at once)',
        params: GatewayParams,
        response: { 200: GatewaySchema, ...errors },
      },
    },
    async (req) => {
      const record = await authorizeGateway(req, 'keys');
      const shown = await view(record);
      if (!(await gw.store.remove(record.id))) throw new AdminError(404, 'not_found', 'gateway not found');
      changed(record.name);
      return shown;
    },
  );

  api.get(
    '/gateways/:gatewayId/tokens',
    { schema: { params: GatewayParams, response: { 200: Type.Array(GatewayTokenSchema), ...errors } } },
    async (req) => {
      const record = await authorizeGateway(req, 'read');
      return (await gw.store.listTokens(record.id)).map((t) => ({
        id: t.id,
        name: t.name,
        createdAt: t.createdAt.toISOString(),
      }));
    },
  );

  api.post(
    '/gateways/:gatewayId/tokens',
    {
      schema: {
        summary:
          'Create a gateway token (opens a restricted gateway: ?token= or X-Nodegate-Gateway-Token); shown this once',
        params: GatewayParams,
        body: CreateGatewayTokenBody,
        response: { 201: CreatedGatewayTokenSchema, ...errors },
      },
    },
    async (req, reply) => {
      const record = await authorizeGateway(req, 'keys');
      if ((await gw.store.listTokens(record.id)).length >= MAX_TOKENS_PER_GATEWAY) {
        throw new AdminError(
          403,
          'token_limit',
          `a gateway may have ${MAX_TOKENS_PER_GATEWAY} tokens; delete one first`,
        );
      }
      const token = newGatewayToken();
      const t = await gw.store.insertToken({
        id: newId('gwt_', 8),
        gatewayId: record.id,
        name: (req.body as { name: string }).name,
        tokenHash: hashGatewayToken(token),
      });
      changed(record.name);
      return reply.status(201).send({ id: t.id, name: t.name, createdAt: t.createdAt.toISOString(), token });
    },
  );

  api.delete(
    '/gateways/:gatewayId/tokens/:tokenId',
    {
      schema: {
        summary: 'Revoke a gateway token (at once)',
        params: GatewayTokenParams,
        response: { 200: Type.Object({ ok: Type.Boolean() }), ...errors },
      },
    },
    async (req) => {
      const record = await authorizeGateway(req, 'keys');
      const { tokenId } = req.params as { tokenId: string };
      if (!(await gw.store.removeToken(record.id, tokenId))) throw new AdminError(404, 'not_found', 'token not found');
      changed(record.name);
      return { ok: true };
    },
  );

  api.get(
    '/gateways/:gatewayId/requests',
    {
      schema: {
        summary: "A gateway's recent requests, newest first",
        params: GatewayParams,
        querystring: GatewayRequestsQuery,
        response: { 200: RequestsResponse, ...errors },
      },
    },
    async (req) => {
      const record = await authorizeGateway(req, 'read');
      if (!deps.usage) throw new AdminError(404, 'not_found', 'this gateway records no usage');
      return deps.usage.recentRequests(record.id, { limit: (req.query as { limit?: number }).limit ?? 50 });
    },
  );
}
