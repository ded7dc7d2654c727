/**
 * A plan: what a key may spend. Plans come from the config (`plans:`); a key uses its own plan
 * override when it has one, else its account's plan.
 */
export interface Plan {
  readonly name: string;
  /** Credits a key may spend per second (the rate limit; 429 -32005 above it). */
  readonly creditsPerSecond: number;
  /** Credits a key may spend per UTC day (429 -32005 above it, until 00:00 UTC). */
  readonly creditsPerDay: number;
  /** Requests may go to a partner provider when every upstream of a network fails. */
  readonly failoverProtection: boolean;
  /** How many active keys an account on this plan may hold. */
  readonly maxKeys: number;
}

/**
 * The plans every gateway knows unless the config overrides them (Infura's tiers; growth and
 * custom are placeholders an operator sets). `dev` is the development key's plan on the
 * embedded default: limits high enough that local work never meets them.
 */
export const DEFAULT_PLANS: Readonly<Record<string, Omit<Plan, 'name'>>> = {
  core: { creditsPerSecond: 500, creditsPerDay: 3_000_000, failoverProtection: false, maxKeys: 25 },
  developer: { creditsPerSecond: 4_000, creditsPerDay: 15_000_000, failoverProtection: false, maxKeys: 50 },
  team: { creditsPerSecond: 40_000, creditsPerDay: 75_000_000, failoverProtection: false, maxKeys: 100 },
  growth: { creditsPerSecond: 100_000, creditsPerDay: 500_000_000, failoverProtection: true, maxKeys: 200 },
  custom: { creditsPerSecond: 1_000_000, creditsPerDay: 10_000_000_000, failoverProtection: true, maxKeys: 1_000 },
  dev: { creditsPerSecond: 100_000_000, creditsPerDay: 1_000_000_000_000, failoverProtection: false, maxKeys: 1_000 },
};

/** The plan of a new account (and of keys created without one). */
export const DEFAULT_PLAN_NAME = 'core';
