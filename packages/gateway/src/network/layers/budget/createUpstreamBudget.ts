import type { UpstreamRateLimit } from '../../../config/types.js';

/** How much a 429 tightens a budget, how often at most, and its floor (a share of the configured rate). */
const TIGHTEN = 0.8;
const TIGHTEN_EVERY_MS = 1_000;
const FLOOR = 0.1;
/** How a budget relaxes after the provider's last 429: this share of the configured rate every so often. */
const RELAX_STEP = 0.05;
const RELAX_EVERY_MS = 10_000;

/** An upstream's budget as /health shows it. */
export interface BudgetHealth {
  /** `requests` or `credits` a second. */
  readonly unit: 'requests' | 'credits';
  /** The configured rate. */
  readonly configured: number;
  /** The rate in force now (lower after a 429 from the provider, until it relaxes back). */
  readonly effective: number;
  /** Calls that found it spent (and went elsewhere or waited). */
  readonly spent: number;
  /** 429s the provider answered anyway. */
  readonly throttled: number;
}

/** One upstream's request budget: its rate now (auto-tuned), and what happened to it. */
export interface UpstreamBudget {
  readonly unit: 'requests' | 'credits';
  readonly configured: number;
  /** The rate in force at `now`, per second (relaxed back toward the configured one since the last 429). */
  rate(now: number): number;
  /** The provider answered 429 at `now`: the rate tightens (with `autoTune`). */
  throttled(now: number): void;
  /** A call found it spent. */
  spent(): void;
  health(now: number): BudgetHealth;
}

/**
 * The budget of one upstream (`rateLimit`), auto-tuned: each 429 from the provider lowers the
 * rate in force to 80 % (at most once a second: the answers of calls already sent count once),
 * never below 10 % of the configured rate; every 10 s without a 429 it rises again by 5 % of the
 * configured rate, up to it. Without `autoTune` the rate stays as configured. The counting
 * itself is the limiter's (`createBudgetLayer`); this holds the rate and the counts /health shows.
 *
 * @example
 * const b = createUpstreamBudget({ unit: 'requests', perSecond: 25, autoTune: true }, Date.now());
 * b.throttled(Date.now()); b.rate(Date.now()); // 20
 */
export function createUpstreamBudget(limit: UpstreamRateLimit, now: number): UpstreamBudget {
  const configured = limit.perSecond;
  /** The rate set by the last tightening, and when; relaxing is computed from it. */
  let base = configured;
  let since = now;
  let lastTighten = Number.NEGATIVE_INFINITY;
  let spent = 0;
  let throttled = 0;
  const rate = (t: number) => {
    if (base >= configured) return configured;
    const steps = Math.max(0, Math.floor((t - since) / RELAX_EVERY_MS));
    return Math.min(configured, base + steps * RELAX_STEP * configured);
  };
  return {
    unit: limit.unit,
    configured,
    rate,
    throttled(t) {
      throttled += 1;
      if (!limit.autoTune || t - lastTighten < TIGHTEN_EVERY_MS) return;
      lastTighten = t;
      base = Math.max(configured * FLOOR, rate(t) * TIGHTEN);
      since = t;
    },
    spent() {
      spent += 1;
    },
    health: (t) => ({
      unit: limit.unit,
      configured,
      effective: Math.round(rate(t) * 100) / 100,
      spent,
      throttled,
    }),
  };
}
