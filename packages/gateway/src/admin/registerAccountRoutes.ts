import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_PLAN_NAME } from '../plans/Plan.js';
import { MAX_PENDING_INVITATIONS, type Role } from '../accounts/AccountStore.js';
import type { AdminDeps } from './AdminDeps.js';
import { AdminError } from './AdminError.js';
import {
  AccountParams,
  AccountPlanSchema,
  AccountSchema,
  AddMemberBody,
  CreateAccountBody,
  CreatedInvitationSchema,
  ErrorBody,
  InvitationParams,
  InvitationSchema,
  MemberParams,
  MemberSchema,
  OkBody,
  PatchAccountBody,
  PatchMemberBody,
  PlanSchema,
} from './adminSchemas.js';
import { accountView, invitationView, memberView } from './adminViews.js';
import { authorizeAccount, callerOf } from './authorizeAccount.js';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Accounts, their members and plans: `GET|POST /accounts`, `GET|PATCH /accounts/{id}`,
 * `GET|POST /accounts/{id}/members` (POST invites), `PATCH|DELETE /accounts/{id}/members/{userId}`,
 * `GET /accounts/{id}/invitations`, `DELETE /accounts/{id}/invitations/{invitationId}`,
 * `GET /accounts/{id}/plan`, `GET /plans`.
 */
export function registerAccountRoutes(api: FastifyInstance, deps: AdminDeps): void {
  const knownPlan = (plan: string, field: string) => {
    if (!deps.plans[plan]) {
      throw new AdminError(
        400,
        'invalid_request',
        `${field}: unknown plan "${plan}" (known: ${Object.keys(deps.plans).join(', ')})`,
        field,
      );
    }
  };

  api.get(
    '/accounts',
    {
      schema: {
        summary: "The caller's accounts (the operator: every account)",
        response: { 200: Type.Array(AccountSchema), ...errors },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const mine = caller.user ? await deps.accounts.accountsOf(caller.user.id) : [];
      if (!caller.operator) return mine.map((a) => accountView(a, a.role));
      const roles = new Map(mine.map((a) => [a.id, a.role]));
      return (await deps.accounts.listAccounts()).map((a) => accountView(a, roles.get(a.id) ?? null));
    },
  );

  api.post(
    '/accounts',
    {
      schema: {
        summary: 'Create an account (operator only); a signed-in operator becomes its owner',
        body: CreateAccountBody,
        response: { 201: AccountSchema, ...errors },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      if (!caller.operator) throw new AdminError(403, 'forbidden', 'only the operator can create accounts');
      const body = req.body as { name: string; plan?: string };
      const plan = body.plan ?? DEFAULT_PLAN_NAME;
      knownPlan(plan, 'plan');
      const account = await deps.accounts.createAccount({ name: body.name, plan });
      if (caller.user) await deps.accounts.addMember(account.id, caller.user.id, 'owner');
      return reply.status(201).send(accountView(account, caller.user ? 'owner' : null));
    },
  );

  api.get(
    '/accounts/:id',
    { schema: { params: AccountParams, response: { 200: AccountSchema, ...errors } } },
    async (req) => {
      const { account, role } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'read');
      return accountView(account, role);
    },
  );

  api.patch(
    '/accounts/:id',
    {
      schema: {
        summary: 'Rename (owner, admin); change the plan (operator only)',
        params: AccountParams,
        body: PatchAccountBody,
        response: { 200: AccountSchema, ...errors },
      },
    },
    async (req) => {
      const { account, role, caller } = await authorizeAccount(
        deps,
        req,
        (req.params as { id: string }).id,
        'settings',
      );
      const body = req.body as { name?: string; plan?: string };
      if (body.plan !== undefined) {
        if (!caller.operator)
          throw new AdminError(403, 'forbidden', "only the operator can change an account's plan", 'plan');
        knownPlan(body.plan, 'plan');
      }
      const updated = await deps.accounts.updateAccount(account.id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.plan !== undefined ? { plan: body.plan } : {}),
      });
      if (!updated) throw new AdminError(404, 'not_found', 'account not found');
      // the plan is read with every key: their cached records are stale now
      if (body.plan !== undefined) for (const k of await deps.keys.list(account.id)) deps.onKeyChanged(k.key);
      return accountView(updated, role);
    },
  );

  api.get(
    '/accounts/:id/members',
    { schema: { params: AccountParams, response: { 200: Type.Array(MemberSchema), ...errors } } },
    async (req) => {
      const { account } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'read');
      return (await deps.accounts.members(account.id)).map(memberView);
    },
  );

  api.post(
    '/accounts/:id/members',
    {
      schema: {
        summary:
          'Invite a member (owner): answers a one-time invitation link for the invitee, who joins by accepting it ' +
          '(setting their own password if they have no user, signing in if they have). The answer is the same ' +
          'whether or not the email has a user',
        params: AccountParams,
        body: AddMemberBody,
        response: { 201: CreatedInvitationSchema, ...errors },
      },
      // before the schema's "unexpected property": say why, and what to do instead
      preValidation: async (req) => {
        const body = req.body as Record<string, unknown> | null;
        if (body && typeof body === 'object' && 'password' in body) {
          throw new AdminError(
            400,
            'invalid_request',
            "password: nobody sets another person's password; the invitee sets their own when accepting the invitation",
            'password',
          );
        }
      },
    },
    async (req, reply) => {
      const { account, caller } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'members');
      const body = req.body as { email: string; role: Role };
      const email = body.email.trim().toLowerCase();
      // only this account's members are looked at (its owners see them anyway): whether the email
      // is a user elsewhere stays unknown here
      if ((await deps.accounts.members(account.id)).some((m) => m.email === email)) {
        throw new AdminError(409, 'conflict', 'email: already a member of this account', 'email');
      }
      const made = await deps.accounts.createInvitation(
        { accountId: account.id, email, role: body.role, invitedBy: caller.user?.id ?? null },
        { ...(deps.invitationTtlMs !== undefined ? { ttlMs: deps.invitationTtlMs } : {}) },
      );
      if (!made) {
        throw new AdminError(
          409,
          'too_many_invitations',
          `this account has ${MAX_PENDING_INVITATIONS} pending invitations; withdraw some first`,
        );
      }
      const base = (deps.baseUrl?.() ?? `${req.protocol}://${req.host}`).replace(/\/$/, '');
      return reply.status(201).send({
        ...invitationView(made.invitation),
        token: made.token,
        inviteUrl: `${base}/dashboard/invite#token=${made.token}`,
      });
    },
  );

  api.get(
    '/accounts/:id/invitations',
    {
      schema: {
        summary: "The account's pending invitations (owner)",
        params: AccountParams,
        response: { 200: Type.Array(InvitationSchema), ...errors },
      },
    },
    async (req) => {
      const { account } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'members');
      return (await deps.accounts.listInvitations(account.id)).map(invitationView);
    },
  );

  api.delete(
    '/accounts/:id/invitations/:invitationId',
    {
      schema: {
        summary: 'Withdraw a pending invitation (owner): its link stops working',
        params: InvitationParams,
        response: { 200: OkBody, ...errors },
      },
    },
    async (req) => {
      const { id, invitationId } = req.params as { id: string; invitationId: string };
      const { account } = await authorizeAccount(deps, req, id, 'members');
      if (!(await deps.accounts.deleteInvitation(account.id, invitationId))) {
        throw new AdminError(404, 'not_found', 'invitation not found');
      }
      return { ok: true };
    },
  );

  const lastOwner = () => new AdminError(409, 'last_owner', 'an account keeps at least one owner');
  const noMember = () => new AdminError(404, 'not_found', 'member not found');

  api.patch(
    '/accounts/:id/members/:userId',
    { schema: { params: MemberParams, body: PatchMemberBody, response: { 200: MemberSchema, ...errors } } },
    async (req) => {
      const { id, userId } = req.params as { id: string; userId: string };
      const { account } = await authorizeAccount(deps, req, id, 'members');
      const result = await deps.accounts.setRole(account.id, userId, (req.body as { role: Role }).role);
      if (result === 'last-owner') throw lastOwner();
      if (result === 'not-found') throw noMember();
      const member = (await deps.accounts.members(account.id)).find((m) => m.id === userId);
      if (!member) throw noMember();
      return memberView(member);
    },
  );

  api.delete(
    '/accounts/:id/members/:userId',
    { schema: { params: MemberParams, response: { 200: OkBody, ...errors } } },
    async (req) => {
      const { id, userId } = req.params as { id: string; userId: string };
      const { account } = await authorizeAccount(deps, req, id, 'members');
      const result = await deps.accounts.removeMember(account.id, userId);
      if (result === 'last-owner') throw lastOwner();
      if (result === 'not-found') throw noMember();
      return { ok: true };
    },
  );

  api.get(
    '/accounts/:id/plan',
    {
      schema: {
        summary: "The account plan's limits and today's consumption",
        params: AccountParams,
        response: { 200: AccountPlanSchema, ...errors },
      },
    },
    async (req) => {
      const { account } = await authorizeAccount(deps, req, (req.params as { id: string }).id, 'read');
      const plan = deps.plans[account.plan] ?? deps.plans[DEFAULT_PLAN_NAME];
      if (!plan) throw new AdminError(404, 'not_found', `plan "${account.plan}" is not configured`);
      const active = (await deps.keys.list(account.id)).filter((k) => k.revokedAt === null);
      const usedToday = deps.usedToday;
      const spent = usedToday
        ? (await Promise.all(active.map((k) => usedToday(k.key)))).reduce((a, b) => a + b, 0)
        : null;
      return { plan, activeKeys: active.length, usedToday: spent };
    },
  );

  api.get(
    '/plans',
    { schema: { summary: 'Every plan', response: { 200: Type.Array(PlanSchema), ...errors } } },
    async () => Object.values(deps.plans),
  );
}
