import type { FastifyRequest } from 'fastify';
import type { AccountStore, User } from '../accounts/AccountStore.js';
import type { SignInThrottle } from '../accounts/createSignInThrottle.js';
import type { GatewayAdminDeps } from '../ipfsGateway/admin/registerGatewayRoutes.js';
import type { Plan } from '../plans/Plan.js';
import type { KeyStore } from '../store/KeyStore.js';
import type { UsageQueries } from '../usage/UsageStore.js';

/** What the admin API is built from (the composition root passes these). */
export interface AdminDeps {
  readonly keys: KeyStore;
  readonly accounts: AccountStore;
  /** Recorded usage; without it the usage routes answer 404. */
  readonly usage?: UsageQueries | undefined;
  /** Every plan by name (config plans, or DEFAULT_PLANS). */
  readonly plans: Readonly<Record<string, Plan>>;
  /** Credits a key spent today (UTC), for `GET /accounts/{id}/plan`. */
  readonly usedToday?: ((key: string) => Promise<number>) | undefined;
  /** Bytes a key stores on IPFS (the sum of its pins), for `GET /keys/{key}/storage`; absent without IPFS. */
  readonly storedBytes?: ((key: string) => Promise<number>) | undefined;
  /** The stored-bytes quota per key (`ipfs.maxStoredBytesPerKey`). */
  readonly maxStoredBytesPerKey?: number | undefined;
  /** Called after every change to a key (create, patch, revoke): drop caches everywhere. */
  readonly onKeyChanged: (key: string) => void;
  /** How long a failed sign-in waits before answering 401 (default 1000 ms). */
  readonly signInDelayMs?: number | undefined;
  /**
   * Counts password checks (sign-in, accepting an invitation, changing a password) per client
   * address and per email; without it, one in memory with `maxSignInFailures` and
   * `maxSignInFailuresPerEmail`. The composition root passes one over Redis when Redis is configured.
   */
  readonly signInThrottle?: SignInThrottle | undefined;
  /** Sign-in attempts per client address per 15 minutes before 429 (default 20; without `signInThrottle`). */
  readonly maxSignInFailures?: number | undefined;
  /** Sign-in attempts per email per 15 minutes, from any address, before 429 (default 10; without `signInThrottle`). */
  readonly maxSignInFailuresPerEmail?: number | undefined;
  /** How soon after signing in a session may set a first password (none set yet; default 10 minutes). */
  readonly firstPasswordWithinMs?: number | undefined;
  /** How long an invitation can be accepted (default 7 days). */
  readonly invitationTtlMs?: number | undefined;
  /** The gateway's public base URL, for invitation links (default: the request's own origin). */
  readonly baseUrl?: (() => string) | undefined;
  /** Dedicated IPFS gateways (`/gateways`, `/accounts/{id}/gateways`); absent: those routes are not served. */
  readonly gateways?: GatewayAdminDeps | undefined;
}

/** Who is calling: a signed-in user (cookie) or an admin token (operator level). */
export interface Caller {
  readonly via: 'session' | 'token';
  readonly operator: boolean;
  readonly user: User | undefined;
  readonly sessionId: string | undefined;
  readonly csrfToken: string | undefined;
}

/** The caller of each authenticated request (set by the auth hook). */
export const callers = new WeakMap<FastifyRequest, Caller>();
