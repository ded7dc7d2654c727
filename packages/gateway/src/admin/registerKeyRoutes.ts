import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_PLAN_NAME } from '../plans/Plan.js';
import { createApiKey } from '../keys/createApiKey.js';
import type { KeySettings } from '../keys/KeySettings.js';
import type { ApiKeyPatch, ApiKeyRecord } from '../store/KeyStore.js';
import type { AdminDeps } from './AdminDeps.js';
import { AdminError } from './AdminError.js';
import {
  AccountParams,
  CreatedKeySchema,
  CreateKeyBody,
  ErrorBody,
  KeyParams,
  KeySchema,
  ListKeysQuery,
  type PatchKeyInput,
  PatchKeyBody,
} from './adminSchemas.js';
import { keyView } from './adminViews.js';
import { type AccountAccess, authorizeAccount, callerOf } from './authorizeAccount.js';
import { validateKeySettings } from './validateKeySettings.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * API keys: `GET /keys`, `GET|POST /accounts/{id}/keys`, `GET|PATCH|DELETE /keys/{key}`.
 * Secrets are shown once, at creation; every change calls `deps.onKeyChanged`.
 */
export function registerKeyRoutes(api: FastifyInstance, deps: AdminDeps): void {
  const view = (r: ApiKeyRecord) => keyView(r, deps.plans);

  /** The key when the caller may do `access` in its account (404 for strangers). */
  const authorizeKey = async (req: FastifyRequest, access: AccountAccess) => {
    const record = await deps.keys.find((req.params as { key: string }).key);
    if (!record) throw new AdminError(404, 'not_found', 'key not found');
    try {
      const { caller } = await authorizeAccount(deps, req, record.accountId, access);
      return { record, caller };
    } catch (err) {
      if (err instanceof AdminError && err.statusCode === 404) throw new AdminError(404, 'not_found', 'key not found');
      throw err;
    }
  };
  const checkPlan = (plan: string | null | undefined, operator: boolean) => {
    if (plan === undefined) return;
    if (!operator) throw new AdminError(403, 'forbidden', "only the operator can set a key's plan", 'plan');
    if (plan !== null && !deps.plans[plan]) {
      throw new AdminError(
        400,
        'invalid_request',
        `plan: unknown plan "${plan}" (known: ${Object.keys(deps.plans).join(', ')})`,
        'plan',
      );
    }
  };

  api.get(
    '/keys',
    {
      schema: {
        summary: 'Every key the caller can see (the operator: all), oldest first',
        querystring: ListKeysQuery,
        response: { 200: Type.Array(KeySchema), ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { account } = req.query as { account?: string };
      if (account !== undefined) {
        await authorizeAccount(deps, req, account, 'read');
        return (await deps.keys.list(account)).map(view);
      }
      if (caller.operator) return (await deps.keys.list()).map(view);
      const mine = caller.user ? await deps.accounts.accountsOf(caller.user.id) : [];
      return (await Promise.all(mine.map((a) => deps.keys.list(a.id)))).flat().map(view);
    },
  );

  api.get(
    '/accounts/:id/keys',
    { schema: { params: AccountParams, response: { 200: Type.Array(KeySchema), ...errors } } },
    async (req) => {
      const { account } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'read');
      return (await deps.keys.list(account.id)).map(view);
    },
  );

  api.post(
    '/accounts/:id/keys',
    {
      schema: {
        summary: "Create a key; the answer holds its secret, shown this once. Refused at the plan's maxKeys",
        params: AccountParams,
        body: CreateKeyBody,
        response: { 201: CreatedKeySchema, ...errors },
      },
    },
    async (req, reply) => {
      const { account, caller } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'keys');
      const body = req.body as { name: string; plan?: string | null };
      checkPlan(body.plan, caller.operator);
      const plan = deps.plans[account.plan] ?? deps.plans[DEFAULT_PLAN_NAME];
      const active = (await deps.keys.list(account.id)).filter((k) => k.revokedAt === null).length;
      if (plan && active >= plan.maxKeys) {
        throw new AdminError(
          403,
          'key_limit',
          `the ${plan.name} plan allows ${plan.maxKeys} active keys; revoke one first`,
        );
      }
      const { record, secret } = await createApiKey(deps.keys, {
        name: body.name,
        accountId: account.id,
        plan: body.plan ?? null,
      });
      deps.onKeyChanged(record.key);
      return reply.status(201).send({ ...view(record), secret });
    },
  );

  api.get('/keys/:key', { schema: { params: KeyParams, response: { 200: KeySchema, ...errors } } }, async (req) =>
    view((await authorizeKey(req, 'read')).record),
  );

  api.patch(
    '/keys/:key',
    {
      schema: {
        summary: 'Change name, plan (operator only) or settings; only the fields given change',
        params: KeyParams,
        body: PatchKeyBody,
        response: { 200: KeySchema, ...errors },
      },
    },
    async (req) => {
      const { record, caller } = await authorizeKey(req, 'keys');
      if (record.revokedAt !== null) throw new AdminError(409, 'revoked', 'the key is revoked');
      const body = req.body as PatchKeyInput;
      checkPlan(body.plan, caller.operator);
      let settings: KeySettings | undefined;
      if (body.settings !== undefined) {
        const check = validateKeySettings(body.settings, record.settings);
        if (!check.ok) throw new AdminError(400, 'invalid_request', check.problem.message, check.problem.field);
        settings = check.settings as KeySettings;
      }
      const patch: ApiKeyPatch = {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.plan !== undefined ? { plan: body.plan } : {}),
        ...(settings ? { settings } : {}),
      };
      const updated = await deps.keys.update(record.key, patch);
      if (!updated) throw new AdminError(404, 'not_found', 'key not found');
      deps.onKeyChanged(record.key);
      return view(updated);
    },
  );

  api.delete(
    '/keys/:key',
    {
      schema: {
        summary: 'Revoke a key (at once, on every gateway)',
        params: KeyParams,
        response: { 200: KeySchema, ...errors },
      },
    },
    async (req) => {
      const { record } = await authorizeKey(req, 'keys');
      if (!(await deps.keys.revoke(record.key))) throw new AdminError(409, 'revoked', 'the key is already revoked');
      deps.onKeyChanged(record.key);
      const after = await deps.keys.find(record.key);
      return view(after ?? record);
    },
  );
}
