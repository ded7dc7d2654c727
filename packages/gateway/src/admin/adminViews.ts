import type { Account, Invitation, Member, Role, User } from '../accounts/AccountStore.js';
import { DEFAULT_PLAN_NAME, type Plan } from '../plans/Plan.js';
import type { ApiKeyRecord } from '../store/KeyStore.js';
import type { AccountView, InvitationView, KeyView, MemberView, UserView } from './adminSchemas.js';

/** The plan a key runs on: its override, else its account's; an unknown name falls back to the default plan. */
export function effectivePlanName(r: ApiKeyRecord, plans: Readonly<Record<string, Plan>>): string {
  if (r.plan !== null && plans[r.plan]) return r.plan;
  if (plans[r.accountPlan]) return r.accountPlan;
  return DEFAULT_PLAN_NAME;
}

/** A key as the admin API shows it: never the secret or its hash. */
export function keyView(r: ApiKeyRecord, plans: Readonly<Record<string, Plan>>): KeyView {
  return {
    key: r.key,
    name: r.name,
    accountId: r.accountId,
    plan: r.plan,
    effectivePlan: effectivePlanName(r, plans),
    dev: r.dev,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
    settings: {
      ...r.settings,
      allowedOrigins: [...r.settings.allowedOrigins],
      allowedUserAgents: [...r.settings.allowedUserAgents],
      allowedContracts: [...r.settings.allowedContracts],
      allowedMethods: [...r.settings.allowedMethods],
      jwtKeys: r.settings.jwtKeys.map((k) => ({ name: k.name, pem: k.pem })),
    },
  };
}

export function userView(u: User): UserView {
  return {
    id: u.id,
    email: u.email,
    operator: u.operator,
    hasPassword: u.hasPassword,
    createdAt: u.createdAt.toISOString(),
  };
}

export function memberView(m: Member): MemberView {
  return { ...userView(m), role: m.role };
}

export function accountView(a: Account, role: Role | null): AccountView {
  return { id: a.id, name: a.name, plan: a.plan, createdAt: a.createdAt.toISOString(), role };
}

/** A pending invitation as the account's owners see it: never its token. */
export function invitationView(i: Invitation): InvitationView {
  return {
    id: i.id,
    accountId: i.accountId,
    email: i.email,
    role: i.role,
    invitedBy: i.invitedBy,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  };
}
