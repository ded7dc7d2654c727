/** The limits one key is held to, after its plan and its own overrides are combined. */
export interface KeyLimits {
  readonly creditsPerSecond: number;
  readonly creditsPerDay: number;
}

/** Why a charge was refused, with what the wire error carries. */
export type LimitRefusal =
  | {
      readonly ok: false;
      readonly kind: 'rate';
      /** The key's current rate, credits per second. */
      readonly currentRps: number;
      readonly allowedRps: number;
      /** How long to wait before the charge would fit (also the Retry-After header, rounded up). */
      readonly backoffSeconds: number;
    }
  | {
      readonly ok: false;
      readonly kind: 'daily';
      readonly dailyLimit: number;
      readonly used: number;
      /** ISO time of the next 00:00 UTC. */
      readonly resetsAt: string;
    };

export type LimitDecision = { readonly ok: true } | LimitRefusal;

/**
 * Rate and daily credit limits per key. Two implementations share one contract suite
 * (`limiterContract.ts`): in memory (one gateway process) and Redis (many gateways; each
 * charge is one atomic script, never read-then-write).
 */
export interface Limiter {
  /**
   * Charges `credits` to `key` when both its per-second rate and its daily total allow it;
   * otherwise charges nothing and says which limit refused. Atomic: concurrent charges of one
   * key never both pass when only one fits.
   */
  charge(key: string, credits: number, limits: KeyLimits, now?: number): Promise<LimitDecision>;
  /** Charges without refusing (e.g. subscription events already delivered upstream). */
  record(key: string, credits: number, now?: number): Promise<void>;
  /** Credits the key has used in the current UTC day. */
  usedToday(key: string, now?: number): Promise<number>;
  close(): Promise<void>;
}
