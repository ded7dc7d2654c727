import type { FastifyInstance } from 'fastify';
import { MIN_PASSWORD_LENGTH, type User } from '../accounts/AccountStore.js';
import type { AdminDeps } from './AdminDeps.js';
import { AdminError } from './AdminError.js';
import { ErrorBody, OkBody, PasswordBody, SessionSchema, SignInBody } from './adminSchemas.js';
import { callerOf } from './authorizeAccount.js';
import { sessionView } from './sessionView.js';
import { setSessionCookie } from './setSessionCookie.js';
import { type AttemptGuard, throttledAttempt } from './throttledAttempt.js';

export { SESSION_COOKIE } from './setSessionCookie.js';
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody };
/** How soon after signing in a session may set a first password, by default. */
export const FIRST_PASSWORD_WITHIN_MS = 10 * 60_000;

/**
 * Sign-in, the current session, sign-out and password change:
 * `POST /sessions`, `GET|DELETE /sessions/current`, `PUT /users/me/password`. Every password
 * check (and sign-in token) goes through `guard`: counted per address and email before it runs.
 * Changing a password needs the current one; setting a first one (the operator after a link
 * sign-in) needs a fresh session, signed in within `firstPasswordWithinMs` (10 minutes), so an
 * old session left open somewhere cannot claim the account. Either way the user's other
 * sessions end.
 */
export function registerSessionRoutes(api: FastifyInstance, deps: AdminDeps, guard: AttemptGuard): void {
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
      const body = req.body as { email?: string; password?: string; signInToken?: string };
      let user: User;
      if (body.signInToken !== undefined) {
        if (body.email !== undefined || body.password !== undefined) {
          throw new AdminError(400, 'invalid_request', 'signInToken: send it alone', 'signInToken');
        }
        const token = body.signInToken;
        user = await throttledAttempt(
          guard,
          req,
          reply,
          undefined,
          () => deps.accounts.redeemSignInToken(token),
          () => new AdminError(401, 'unauthenticated', 'the sign-in link is invalid, expired or already used'),
        );
      } else {
        const { email, password } = body;
        if (email === undefined) throw new AdminError(400, 'invalid_request', 'email: required', 'email');
        if (password === undefined) throw new AdminError(400, 'invalid_request', 'password: required', 'password');
        user = await throttledAttempt(
          guard,
          req,
          reply,
          email,
          () => deps.accounts.verifyPassword(email, password),
          () => new AdminError(401, 'unauthenticated', 'wrong email or password'),
        );
      }
      const session = await deps.accounts.createSession(user.id);
      setSessionCookie(req, reply, session.id, session.expiresAt);
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
      setSessionCookie(req, reply, '', new Date(0));
      return { ok: true };
    },
  );

  api.put(
    '/users/me/password',
    {
      schema: {
        summary: `Set or change your password (at least ${MIN_PASSWORD_LENGTH} characters): with currentPassword when one is set, else within 10 minutes of signing in; ends your other sessions`,
        body: PasswordBody,
        response: { 200: OkBody, ...errors },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { currentPassword, newPassword } = req.body as { currentPassword?: string; newPassword: string };
      if (!caller.user) throw new AdminError(403, 'forbidden', 'an admin token has no user; sign in to set a password');
      const user = await deps.accounts.findUser(caller.user.id);
      if (!user) throw new AdminError(401, 'unauthenticated', 'sign in again');
      if (user.hasPassword) {
        if (currentPassword === undefined) {
          throw new AdminError(400, 'invalid_request', 'currentPassword: required', 'currentPassword');
        }
        // a stolen session must not become a way to guess the password: the same throttle as sign-in
        await throttledAttempt(
          guard,
          req,
          reply,
          user.email,
          () => deps.accounts.verifyPassword(user.email, currentPassword),
          () => new AdminError(403, 'wrong_password', 'currentPassword: wrong password', 'currentPassword'),
        );
      } else {
        // nothing to check it against: only a session signed in moments ago sets the first one
        const session = caller.sessionId ? await deps.accounts.findSession(caller.sessionId) : undefined;
        const within = deps.firstPasswordWithinMs ?? FIRST_PASSWORD_WITHIN_MS;
        if (!session || Date.now() - session.createdAt.getTime() > within) {
          throw new AdminError(
            403,
            'stale_session',
            `sign in again to set a first password (within ${Math.round(within / 60_000)} minutes of signing in); the operator gets a new link with \`nodegate admin sign-in-link\``,
          );
        }
      }
      await deps.accounts.setPassword(user.id, newPassword);
      await deps.accounts.deleteUserSessions(user.id, caller.sessionId);
      return { ok: true };
    },
  );
}
