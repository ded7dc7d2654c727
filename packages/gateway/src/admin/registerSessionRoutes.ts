import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MIN_PASSWORD_LENGTH, type User } from '../accounts/AccountStore.js';
import type { AdminDeps } from './AdminDeps.js';
import { AdminError } from './AdminError.js';
import { ErrorBody, OkBody, PasswordBody, SessionSchema, SignInBody, type SessionView } from './adminSchemas.js';
import { accountView, userView } from './adminViews.js';
import { callerOf } from './authorizeAccount.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'nodegate_session';
const FAILURE_WINDOW_MS = 15 * 60_000;
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody };

async function sessionView(deps: AdminDeps, user: User | undefined, csrfToken: string | null): Promise<SessionView> {
  const operator = user?.operator ?? true;
  let accounts: SessionView['accounts'];
  if (user && !operator) {
    accounts = (await deps.accounts.accountsOf(user.id)).map((a) => accountView(a, a.role));
  } else {
    const roles = new Map((user ? await deps.accounts.accountsOf(user.id) : []).map((a) => [a.id, a.role]));
    accounts = (await deps.accounts.listAccounts()).map((a) => accountView(a, roles.get(a.id) ?? null));
  }
  return { user: user ? userView(user) : null, operator, csrfToken, accounts };
}

/**
 * Sign-in, the current session, sign-out and password change:
 * `POST /sessions`, `GET|DELETE /sessions/current`, `PUT /users/me/password`.
 */
export function registerSessionRoutes(api: FastifyInstance, deps: AdminDeps): void {
  const delayMs = deps.signInDelayMs ?? 1000;
  const maxFailures = deps.maxSignInFailures ?? 20;
  const failures = new Map<string, { count: number; resetAt: number }>();

  const setCookie = (req: FastifyRequest, reply: FastifyReply, value: string, expires: Date) =>
    reply.setCookie(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      secure: req.protocol === 'https',
      expires,
    });

  api.post(
    '/sessions',
    {
      config: { public: true },
      schema: {
        summary: 'Sign in with { email, password } or { signInToken }; sets the session cookie',
        security: [],
        body: SignInBody,
        response: { 200: SessionSchema, ...errors },
      },
    },
    async (req, reply) => {
      const started = Date.now();
      const body = req.body as { email?: string; password?: string; signInToken?: string };
      const now = Date.now();
      const seen = failures.get(req.ip);
      if (seen && seen.resetAt > now && seen.count >= maxFailures) {
        reply.header('retry-after', Math.ceil((seen.resetAt - now) / 1000));
        throw new AdminError(429, 'too_many_attempts', 'too many failed sign-ins; try again later');
      }
      let user: User | undefined;
      let failure: string;
      if (body.signInToken !== undefined) {
        if (body.email !== undefined || body.password !== undefined) {
          throw new AdminError(400, 'invalid_request', 'signInToken: send it alone', 'signInToken');
        }
        user = await deps.accounts.redeemSignInToken(body.signInToken);
        failure = 'the sign-in link is invalid, expired or already used';
      } else {
        if (body.email === undefined) throw new AdminError(400, 'invalid_request', 'email: required', 'email');
        if (body.password === undefined) throw new AdminError(400, 'invalid_request', 'password: required', 'password');
        user = await deps.accounts.verifyPassword(body.email, body.password);
        failure = 'wrong email or password';
      }
      if (!user) {
        const entry = seen && seen.resetAt > now ? seen : { count: 0, resetAt: now + FAILURE_WINDOW_MS };
        entry.count++;
        failures.set(req.ip, entry);
        if (failures.size > 10_000) failures.clear();
        await new Promise((r) => setTimeout(r, Math.max(0, started + delayMs - Date.now())));
        throw new AdminError(401, 'unauthenticated', failure);
      }
      const session = await deps.accounts.createSession(user.id);
      setCookie(req, reply, session.id, session.expiresAt);
      return sessionView(deps, user, session.csrfToken);
    },
  );

  api.get(
    '/sessions/current',
    {
      schema: {
        summary: 'Who is signed in, their CSRF token and accounts',
        response: { 200: SessionSchema, ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      return sessionView(deps, caller.user, caller.csrfToken ?? null);
    },
  );

  api.delete(
    '/sessions/current',
    { schema: { summary: 'Sign out', response: { 200: OkBody, ...errors } } },
    async (req, reply) => {
      const caller = callerOf(req);
      if (caller.sessionId) await deps.accounts.deleteSession(caller.sessionId);
      setCookie(req, reply, '', new Date(0));
      return { ok: true };
    },
  );

  api.put(
    '/users/me/password',
    {
      schema: {
        summary: `Set or change your password (at least ${MIN_PASSWORD_LENGTH} characters); ends your other sessions`,
        body: PasswordBody,
        response: { 200: OkBody, ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { currentPassword, newPassword } = req.body as { currentPassword?: string; newPassword: string };
      if (!caller.user) throw new AdminError(403, 'forbidden', 'an admin token has no user; sign in to set a password');
      const user = await deps.accounts.findUser(caller.user.id);
      if (!user) throw new AdminError(401, 'unauthenticated', 'sign in again');
      if (user.hasPassword) {
        if (currentPassword === undefined) {
          throw new AdminError(400, 'invalid_request', 'currentPassword: required', 'currentPassword');
        }
        if (!(await deps.accounts.verifyPassword(user.email, currentPassword))) {
          throw new AdminError(403, 'wrong_password', 'currentPassword: wrong password', 'currentPassword');
        }
      }
      await deps.accounts.setPassword(user.id, newPassword);
      await deps.accounts.deleteUserSessions(user.id, caller.sessionId);
      return { ok: true };
    },
  );
}
