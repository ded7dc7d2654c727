import type { KeySettings } from '../KeySettings.js';
import { compileRestrictions } from './compileRestrictions.js';
import { contractsAllowed } from './contractsAllowed.js';
import { methodAllowed } from './methodAllowed.js';
import { originAllowed } from './originAllowed.js';
import { userAgentAllowed } from './userAgentAllowed.js';

/** The kind of allowlist that refused a request. */
export type RestrictionKind = 'origin' | 'user-agent' | 'method' | 'contract';

/** What the restrictions look at in one request (or batch item). */
export interface RestrictedRequest {
  /** The Origin header, if sent. */
  readonly origin: string | undefined;
  /** The User-Agent header, if sent. */
  readonly userAgent: string | undefined;
  /** The JSON-RPC method or IPFS command; omit it to check only the connection (e.g. a WebSocket upgrade). */
  readonly method?: string | undefined;
  /**
   * The contracts the method names, from the method row's `contracts` trait: undefined when it
   * names none, `[]` when it could but was called without one.
   */
  readonly contracts?: readonly string[] | undefined;
}

/**
 * The one restriction check the pipeline calls: every allowlist of the key in turn (origin,
 * user agent, method, contract). Returns undefined when the request passes, else the kind
 * of rule that refused it (never the list contents, which are the key owner's business).
 * A key without allowlists costs one cached lookup.
 *
 * @example
 * const settings = { ...OPEN_SETTINGS, allowedMethods: ['eth_call'] };
 * checkRestrictions(settings, { origin: undefined, userAgent: 'x', method: 'eth_call' })    // undefined
 * checkRestrictions(settings, { origin: undefined, userAgent: 'x', method: 'eth_getCode' }) // 'method'
 */
export function checkRestrictions(settings: KeySettings, request: RestrictedRequest): RestrictionKind | undefined {
  if (compileRestrictions(settings).open) return undefined;
  if (!originAllowed(settings, request.origin)) return 'origin';
  if (!userAgentAllowed(settings, request.userAgent)) return 'user-agent';
  if (request.method !== undefined && !methodAllowed(settings, request.method)) return 'method';
  if (!contractsAllowed(settings, request.contracts)) return 'contract';
  return undefined;
}
