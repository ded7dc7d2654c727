import type { KeySettings } from '../KeySettings.js';
import { compileRestrictions } from './compileRestrictions.js';

/**
 * Whether a method passes the key's `allowedMethods`: an empty list allows every method;
 * otherwise the exact name must be listed (`eth_call`, `stk_getNonce`, an IPFS command such as
 * `pin/add`).
 *
 * @example
 * methodAllowed({ ...OPEN_SETTINGS, allowedMethods: ['eth_call'] }, 'eth_call')        // true
 * methodAllowed({ ...OPEN_SETTINGS, allowedMethods: ['eth_call'] }, 'eth_sendRawTransaction') // false
 */
export function methodAllowed(settings: KeySettings, method: string): boolean {
  const compiled = compileRestrictions(settings);
  return !compiled.restrictsMethod || compiled.methods.has(method);
}
