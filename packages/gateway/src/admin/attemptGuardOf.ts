import { createSignInThrottle } from '../accounts/createSignInThrottle.js';
import type { AdminDeps } from './AdminDeps.js';
import type { AttemptGuard } from './throttledAttempt.js';

/**
 * The one throttle and failure delay every password check of an admin API goes through
 * (sign-in, accepting an invitation, changing a password): `deps.signInThrottle`, or one in
 * memory with `maxSignInFailures` per address and `maxSignInFailuresPerEmail` per email.
 *
 * @example
 * const guard = attemptGuardOf(deps);
 * registerSessionRoutes(api, deps, guard);
 */
export function attemptGuardOf(deps: AdminDeps): AttemptGuard {
  return {
    throttle:
      deps.signInThrottle ??
      createSignInThrottle({ maxPerAddress: deps.maxSignInFailures, maxPerEmail: deps.maxSignInFailuresPerEmail }),
    failureDelayMs: deps.signInDelayMs ?? 1000,
  };
}
