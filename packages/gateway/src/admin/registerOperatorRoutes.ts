import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MIN_PASSWORD_LENGTH } from '../accounts/AccountStore.js';
import { createOperatorSignInLink } from '../accounts/createOperatorSignInLink.js';
import { OPERATOR_EMAIL } from '../accounts/ensureOperator.js';
import type { AdminDeps } from './AdminDeps.js';
import { AdminError } from './AdminError.js';
import { ErrorBody } from './adminSchemas.js';
import { callerOf } from './authorizeAccount.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

const SignInLinkView = Type.Object({
  url: Type.String({ description: 'the one-time link: signs the operator in once, within 15 minutes' }),
  expiresAt: Type.String({ format: 'date-time' }),
});
const OperatorPasswordBody = Type.Object(
  { newPassword: Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 }) },
  { additionalProperties: false },
);
const OperatorPasswordView = Type.Object({
  ok: Type.Boolean(),
  sessionsEnded: Type.Integer({ description: "the operator's dashboard sessions the change signed out" }),
});

/** The admin token only: a session (even the operator's) cannot mint a way in that outlives it. */
function tokenOnly(req: FastifyRequest): void {
  if (callerOf(req).via !== 'token') {
    throw new AdminError(403, 'forbidden', 'only the admin token may do this (the CLI: nodegate admin …)');
  }
}

async function operatorUser(deps: AdminDeps) {
  const user = await deps.accounts.findUserByEmail(OPERATOR_EMAIL);
  if (!user) throw new AdminError(404, 'not_found', 'the operator user does not exist yet: start the gateway once');
  return user;
}

/**
 * The operator's own way in, for the CLI (`nodegate admin sign-in-link`, `nodegate admin
 * set-password`), with the admin token only: `POST /operator/sign-in-links` makes a new
 * one-time dashboard link (15 minutes; the base is `publicUrl`, else the address the request
 * came to), `PUT /operator/password` sets the operator's password without the current one (the
 * admin token is the recovery path) and signs out every operator session. A session is refused
 * (403), so a stolen dashboard session cannot mint links that survive a password change.
 */
export function registerOperatorRoutes(api: FastifyInstance, deps: AdminDeps): void {
  api.post(
    '/operator/sign-in-links',
    {
      schema: {
        summary: 'A new one-time dashboard sign-in link for the operator (admin token only)',
        security: [{ adminToken: [] }],
        response: { 201: SignInLinkView, ...errors },
      },
    },
    async (req, reply) => {
      tokenOnly(req);
      const user = await operatorUser(deps);
      const base = deps.baseUrl?.() ?? `${req.protocol}://${req.host}`;
      const link = await createOperatorSignInLink(deps.accounts, user.id, base);
      return reply.status(201).send({ url: link.url, expiresAt: link.expiresAt.toISOString() });
    },
  );

  api.put(
    '/operator/password',
    {
      schema: {
        summary: `Set the operator's password (at least ${MIN_PASSWORD_LENGTH} characters; admin token only); signs out the operator's sessions`,
        security: [{ adminToken: [] }],
        body: OperatorPasswordBody,
        response: { 200: OperatorPasswordView, ...errors },
      },
    },
    async (req) => {
      tokenOnly(req);
      const user = await operatorUser(deps);
      await deps.accounts.setPassword(user.id, (req.body as { newPassword: string }).newPassword);
      const sessionsEnded = await deps.accounts.deleteUserSessions(user.id);
      return { ok: true, sessionsEnded };
    },
  );
}
