import type { KeySettings } from '../KeySettings.js';
import { compileRestrictions } from './compileRestrictions.js';
import { normalizeContractAddress } from './normalizeContractAddress.js';

/**
 * Whether the contracts a request names pass the key's `allowedContracts`.
 * - `undefined`: the method names no contract (allowed);
 * - an empty list of allowed contracts allows everything;
 * - otherwise every address named must be listed, and an empty `addresses` (a method that
 *   could name a contract but was called without one, e.g. eth_getLogs without an address
 *   filter, or eth_call without `to`) is refused.
 * Addresses compare as numbers: Ethereum addresses case-insensitively, Starknet felts with or
 * without leading zeros. An address that is not 0x-hex never matches.
 *
 * @example
 * const s = { ...OPEN_SETTINGS, allowedContracts: ['0x04abc'] };
 * contractsAllowed(s, ['0x4ABC']) // true
 * contractsAllowed(s, [])         // false (no address filter)
 * contractsAllowed(s, undefined)  // true  (the method names no contract)
 */
export function contractsAllowed(settings: KeySettings, addresses: readonly string[] | undefined): boolean {
  if (addresses === undefined) return true;
  const compiled = compileRestrictions(settings);
  if (!compiled.restrictsContract) return true;
  if (addresses.length === 0) return false;
  for (const address of addresses) {
    const normalized = normalizeContractAddress(address);
    if (normalized === undefined || !compiled.contracts.has(normalized)) return false;
  }
  return true;
}
