import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInThrottle } from '../accounts/createSignInThrottle.js';
import { PasswordWorkBusyError } from '../accounts/PasswordWorkBusyError.js';
import { AdminError } from './AdminError.js';

/** What a throttled attempt needs: the throttle, and how long a failure waits before it answers. */
export interface AttemptGuard {
  readonly throttle: SignInThrottle;
  readonly failureDelayMs: number;
}

/**
 * Runs one password check (or one use of a secret token) under the sign-in throttle: the attempt
 * is counted per client address (and per `email` when given) **before** `attempt` runs, and
 * refused with 429 `too_many_attempts` + `Retry-After` when over a limit, without any password
 * work. An attempt that answers undefined failed: it keeps counting, and `failure()` is thrown
 * once `failureDelayMs` have passed since the start (a failure takes the same time whatever
 * failed). A success, or an attempt that never reached its check (it threw, e.g. 429 `busy`
 * when scrypt has no room: answered after the same pause), is given back.
 *
 * @example
 * const user = await throttledAttempt(guard, req, reply, email,
 *   () => deps.accounts.verifyPassword(email, password),
 *   () => new AdminError(401, 'unauthenticated', 'wrong email or password'));
 */
export async function throttledAttempt<T>(
  guard: AttemptGuard,
  req: FastifyRequest,
  reply: FastifyReply,
  email: string | undefined,
  attempt: () => Promise<T | undefined>,
  failure: () => AdminError,
): Promise<T> {
  const started = Date.now();
  const ticket = await guard.throttle.take({ address: req.ip, email });
  if (!ticket.ok) {
    reply.header('retry-after', String(ticket.retryAfterSeconds));
    throw new AdminError(429, 'too_many_attempts', 'too many failed sign-ins; try again later');
  }
  const pause = () => new Promise((r) => setTimeout(r, Math.max(0, started + guard.failureDelayMs - Date.now())));
  let result: T | undefined;
  try {
    result = await attempt();
  } catch (err) {
    await ticket.giveBack();
    // no room for a password check: answered after the same pause as a failure, so a client that
    // ignores Retry-After cannot make the gateway spin for it
    if (err instanceof PasswordWorkBusyError) await pause();
    throw err;
  }
  if (result === undefined) {
    await pause();
    throw failure();
  }
  await ticket.giveBack();
  return result;
}
