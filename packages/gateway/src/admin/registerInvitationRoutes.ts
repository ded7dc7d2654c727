import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MIN_PASSWORD_LENGTH, type Session, type User } from '../accounts/AccountStore.js';
import type { AdminDeps } from './AdminDeps.js';
import { AdminError } from './AdminError.js';
import {
  AcceptInvitationBody,
  ErrorBody,
  InvitationLookupSchema,
  type InvitationLookupView,
  InvitationTokenBody,
  SessionSchema,
} from './adminSchemas.js';
import { sessionView } from './sessionView.js';
import { SESSION_COOKIE, setSessionCookie } from './setSessionCookie.js';
import { type AttemptGuard, throttledAttempt } from './throttledAttempt.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };
const invalid = () =>
  new AdminError(404, 'invalid_invitation', 'the invitation link is invalid, expired or already used');

/**
 * The invitee's side of an invitation (public routes: the token is the credential):
 * `POST /invitations/lookup` says what it is for and how to accept it; `POST /invitations/accept`
 * joins the account and signs the invitee in. Whoever accepts proves they are the invitee with
 * their own secret: the session of that user, that user's password, or, for an email without a
 * user, the password they choose now. An invitation never sets or replaces an existing user's
 * password, and a user without one (the operator before theirs) signs in first. Password checks
 * go through `guard` (per address and per email, before the check).
 */
export function registerInvitationRoutes(api: FastifyInstance, deps: AdminDeps, guard: AttemptGuard): void {
  /** The request's session when it is the invitee's (the cookie is sent to public routes too). */
  const inviteeSession = async (req: FastifyRequest, email: string): Promise<Session | undefined> => {
    const id = req.cookies[SESSION_COOKIE];
    const session = id ? await deps.accounts.findSession(id) : undefined;
    return session && session.user.email === email ? session : undefined;
  };

  api.post(
    '/invitations/lookup',
    {
      config: { public: true },
      schema: {
        summary: 'What an invitation is for, and how to accept it',
        security: [],
        body: InvitationTokenBody,
        response: { 200: InvitationLookupSchema, ...errors },
      },
    },
    async (req): Promise<InvitationLookupView> => {
      const { token } = req.body as { token: string };
      const inv = await deps.accounts.findInvitation(token);
      if (!inv) throw invalid();
      const user = await deps.accounts.findUserByEmail(inv.email);
      const accept = (await inviteeSession(req, inv.email))
        ? 'session'
        : !user
          ? 'new-password'
          : user.hasPassword
            ? 'password'
            : 'sign-in';
      return {
        accountName: inv.accountName,
        email: inv.email,
        role: inv.role,
        expiresAt: inv.expiresAt.toISOString(),
        accept,
      };
    },
  );

  api.post(
    '/invitations/accept',
    {
      config: { public: true },
      schema: {
        summary:
          'Accept an invitation and sign in: { token } when signed in as the invitee (with x-csrf-token), ' +
          `{ token, password } with the invitee's password, or a new one (${MIN_PASSWORD_LENGTH}+ characters) when the email has no user`,
        security: [],
        body: AcceptInvitationBody,
        response: { 200: SessionSchema, ...errors },
      },
    },
    async (req, reply) => {
      const { token, password } = req.body as { token: string; password?: string };
      const inv = await deps.accounts.findInvitation(token);
      if (!inv) throw invalid();

      const session = await inviteeSession(req, inv.email);
      if (session) {
        const sent = req.headers['x-csrf-token'];
        if (typeof sent !== 'string' || !sameText(sent, session.csrfToken)) {
          throw new AdminError(403, 'csrf', 'missing or wrong x-csrf-token header');
        }
        if (!(await deps.accounts.acceptInvitation(token, session.user.id))) throw invalid();
        return sessionView(deps, session.user, session.csrfToken);
      }

      const existing = await deps.accounts.findUserByEmail(inv.email);
      if (existing && !existing.hasPassword) {
        throw new AdminError(
          409,
          'sign_in_first',
          `${inv.email} has no password yet: sign in first (the operator with the one-time link), then open the invitation again`,
        );
      }
      if (password === undefined) {
        throw new AdminError(
          400,
          'invalid_request',
          existing ? `password: required (the password of ${inv.email})` : 'password: required (choose one)',
          'password',
        );
      }
      let user: User;
      if (existing) {
        // the invitee's own password, checked like a sign-in (counted per address and email first)
        user = await throttledAttempt(
          guard,
          req,
          reply,
          inv.email,
          async () => {
            const u = await deps.accounts.verifyPassword(inv.email, password);
            if (!u) return undefined;
            if (!(await deps.accounts.acceptInvitation(token, u.id))) throw invalid();
            return u;
          },
          () => new AdminError(401, 'unauthenticated', `password: wrong password for ${inv.email}`, 'password'),
        );
      } else {
        if (password.length < MIN_PASSWORD_LENGTH) {
          throw new AdminError(
            400,
            'invalid_request',
            `password: at least ${MIN_PASSWORD_LENGTH} characters`,
            'password',
          );
        }
        const made = await throttledAttempt(
          guard,
          req,
          reply,
          undefined,
          () => deps.accounts.acceptInvitationAsNewUser(token, password),
          invalid,
        );
        if (made === 'user-exists') {
          throw new AdminError(409, 'conflict', `${inv.email} has a user now: accept with its password`, 'password');
        }
        user = made.user;
      }
      const started = await deps.accounts.createSession(user.id);
      setSessionCookie(req, reply, started.id, started.expiresAt);
      return sessionView(deps, user, started.csrfToken);
    },
  );
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
