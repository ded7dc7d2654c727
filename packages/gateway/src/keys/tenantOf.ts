import type { KeyLimits } from '../limits/Limiter.js';
import type { TenantKey } from '../pipeline/RequestContext.js';
import { DEFAULT_PLAN_NAME, type Plan } from '../plans/Plan.js';
import type { ApiKeyRecord } from '../store/KeyStore.js';

/**
 * A key's effective plan (its own override, else its account's; an unknown plan name falls
 * back to the default plan) and limits (the plan's, lowered by the key's own limits).
 *
 * @example
 * tenantOf(record, config.plans).limits // { creditsPerSecond: 500, creditsPerDay: 3_000_000 }
 */
export function tenantOf(record: ApiKeyRecord, plans: Readonly<Record<string, Plan>>): TenantKey {
  const plan = plans[record.plan ?? record.accountPlan] ?? plans[record.accountPlan] ?? plans[DEFAULT_PLAN_NAME]!;
  const s = record.settings;
  const limits: KeyLimits = {
    creditsPerSecond: Math.min(plan.creditsPerSecond, s.creditsPerSecond ?? Number.POSITIVE_INFINITY),
    creditsPerDay: Math.min(plan.creditsPerDay, s.creditsPerDay ?? Number.POSITIVE_INFINITY),
  };
  return { record, plan, limits };
}
