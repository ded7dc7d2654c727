import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { FastifyError, FastifyInstance } from 'fastify';
import { type AdminDeps, callers } from './AdminDeps.js';
import { DatabaseUnavailableError } from '../store/DatabaseUnavailableError.js';
import { AdminError } from './AdminError.js';
import { PasswordWorkBusyError } from '../accounts/PasswordWorkBusyError.js';
import { attemptGuardOf } from './attemptGuardOf.js';
import { registerAccountRoutes } from './registerAccountRoutes.js';
import { registerInvitationRoutes } from './registerInvitationRoutes.js';
import { registerKeyRoutes } from './registerKeyRoutes.js';
import { registerOperatorRoutes } from './registerOperatorRoutes.js';
import { registerRestrictionRoutes } from './registerRestrictionRoutes.js';
import { registerSessionRoutes, SESSION_COOKIE } from './registerSessionRoutes.js';
import { registerUsageRoutes } from './registerUsageRoutes.js';
import { registerGatewayRoutes } from '../ipfsGateway/admin/registerGatewayRoutes.js';

/** Where the admin API is mounted. */
export const ADMIN_API_PREFIX = '/admin/api/v1';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/settings/allowedOrigins/2` → `settings.allowedOrigins[2]`. */
function fieldOf(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
}

/**
 * Mounts the admin REST API under `/admin/api/v1` in its own encapsulated context (its hooks,
 * cookie parsing, validator and error handler touch no other route). Callers authenticate
 * with the `nodegate_session` cookie (plus `x-csrf-token` on writes) or
 * `Authorization: Bearer <admin token>`. Every route's TypeBox schema validates it and is
 * published at `/admin/api/v1/openapi.json`.
 *
 * @example
 * await registerAdminApi(app, { keys: db.keys, accounts: db.accounts, plans, onKeyChanged: (k) => auth.forget(k) });
 */
export async function registerAdminApi(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  await app.register(
    async (api) => {
      if (!api.hasReplyDecorator('setCookie')) await api.register(cookie);
      await api.register(swagger, {
        openapi: {
          openapi: '3.0.3',
          info: { title: 'nodegate admin API', version: '1' },
          components: {
            securitySchemes: {
              session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
              adminToken: { type: 'http', scheme: 'bearer' },
            },
          },
          security: [{ session: [] }, { adminToken: [] }],
        },
      });

      // TypeBox checks every request part exactly (no coercion of bodies; query strings and
      // path params are converted from text first). The first problem names its field.
      api.setValidatorCompiler(({ schema, httpPart }) => {
        const check = TypeCompiler.Compile(schema as TSchema);
        const convert = httpPart === 'querystring' || httpPart === 'params';
        return (data: unknown) => {
          const value = convert ? Value.Convert(schema as TSchema, data) : data;
          if (check.Check(value)) return { value };
          const first = check.Errors(value).First();
          const path = first?.path ?? '';
          const field = fieldOf(path);
          const what = httpPart === 'body' ? '' : `${httpPart} `;
          const message = `${what}${field || httpPart}: ${(first?.message ?? 'invalid').replace(/^Expected/, 'expected')}`;
          return { error: new AdminError(400, 'invalid_request', message, field || undefined) };
        };
      });

      api.setErrorHandler(
        (err: FastifyError | AdminError | DatabaseUnavailableError | PasswordWorkBusyError, _req, reply) => {
          if (err instanceof AdminError) return reply.status(err.statusCode).send(err.toBody());
          // scrypt is bounded in concurrency: a password check that found no place is refused, not queued
          if (err instanceof PasswordWorkBusyError) {
            return reply
              .status(429)
              .header('retry-after', String(err.retryAfterSeconds))
              .send(new AdminError(429, 'busy', err.message).toBody());
          }
          // the database did not answer in time (or is known to be away): say so, quickly
          if (err instanceof DatabaseUnavailableError) {
            return reply
              .status(503)
              .header('retry-after', '1')
              .send(new AdminError(503, 'unavailable', err.message).toBody());
          }
          const status = err.statusCode ?? 500;
          if (status >= 400 && status < 500) {
            return reply.status(status).send(new AdminError(status, 'invalid_request', err.message).toBody());
          }
          reply.log.error({ code: err.code, name: err.name }, 'admin api error');
          return reply.status(500).send(new AdminError(500, 'internal', 'internal error').toBody());
        },
      );
      api.setNotFoundHandler((_req, reply) =>
        reply.status(404).send(new AdminError(404, 'not_found', 'no such admin API route').toBody()),
      );

      api.addHook('onRequest', async (req) => {
        if ((req.routeOptions.config as { public?: boolean } | undefined)?.public) return;
        const auth = req.headers.authorization;
        if (auth !== undefined) {
          const m = /^Bearer\s+(\S+)$/i.exec(auth);
          if (!m || !(await deps.accounts.verifyAdminToken(m[1]!))) {
            throw new AdminError(401, 'unauthenticated', 'the admin token is not valid');
          }
          callers.set(req, {
            via: 'token',
            operator: true,
            user: undefined,
            sessionId: undefined,
            csrfToken: undefined,
          });
          return;
        }
        const sessionId = req.cookies[SESSION_COOKIE];
        const session = sessionId ? await deps.accounts.findSession(sessionId) : undefined;
        if (!sessionId || !session) throw new AdminError(401, 'unauthenticated', 'sign in or send an admin token');
        if (UNSAFE.has(req.method)) {
          const sent = req.headers['x-csrf-token'];
          if (typeof sent !== 'string' || !sameText(sent, session.csrfToken)) {
            throw new AdminError(403, 'csrf', 'missing or wrong x-csrf-token header');
          }
        }
        callers.set(req, {
          via: 'session',
          operator: session.user.operator,
          user: session.user,
          sessionId,
          csrfToken: session.csrfToken,
        });
      });

      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => api.swagger());
      // one throttle for every password check of this API (sign-in, invitations, password change)
      const guard = attemptGuardOf(deps);
      registerSessionRoutes(api, deps, guard);
      registerOperatorRoutes(api, deps);
      registerInvitationRoutes(api, deps, guard);
      registerAccountRoutes(api, deps);
      registerKeyRoutes(api, deps);
      registerUsageRoutes(api, deps);
      registerRestrictionRoutes(api);
      if (deps.gateways) registerGatewayRoutes(api, deps, deps.gateways);
    },
    { prefix: ADMIN_API_PREFIX },
  );
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
