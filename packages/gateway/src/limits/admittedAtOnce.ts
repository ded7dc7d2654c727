import type { LimitDecision } from './Limiter.js';

/**
 * What a {@link Limiter}'s `charge` returns when it admitted the charge at once (counted in
 * memory, or from a lease): one resolved promise shared by every such charge, so a caller may
 * compare against it and go on without awaiting (`chargeCredits` does: no microtask and no frame
 * per admitted request).
 *
 * @example
 * const deciding = limiter.charge(key, 1, limits);
 * if (deciding !== ADMITTED_AT_ONCE) await deciding;
 */
export const ADMITTED_AT_ONCE: Promise<LimitDecision> = Promise.resolve(Object.freeze({ ok: true }));
