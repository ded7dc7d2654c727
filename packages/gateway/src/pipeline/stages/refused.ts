import { GatewayError } from '../../errors/GatewayError.js';

/** The rule kinds a key's settings refuse a request by (the list contents are never shown). */
export type RefusalReason = 'origin' | 'user-agent' | 'method' | 'contract';

/**
 * The 403 `-32002` refusal of a request by its key's settings; `data.reason` names the rule kind.
 *
 * @example
 * throw refused('origin');
 */
export function refused(reason: RefusalReason): GatewayError {
  return new GatewayError('FORBIDDEN', 'rejected due to project ID settings', { data: { reason }, refusal: reason });
}
