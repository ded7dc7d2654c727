import type { KeySettings } from '../KeySettings.js';

/**
 * Whether the request's User-Agent passes the key's `allowedUserAgents`: an empty list allows
 * every request; otherwise the header must be present and contain one entry as a substring
 * (case-sensitive, as the header is sent).
 *
 * @example
 * const s = { ...OPEN_SETTINGS, allowedUserAgents: ['MyWallet/'] };
 * userAgentAllowed(s, 'Mozilla/5.0 MyWallet/2.1') // true
 * userAgentAllowed(s, 'curl/8.0')                 // false
 * userAgentAllowed(s, undefined)                  // false
 */
export function userAgentAllowed(settings: KeySettings, userAgent: string | undefined): boolean {
  const list = settings.allowedUserAgents;
  if (list.length === 0) return true;
  if (userAgent === undefined) return false;
  for (const entry of list) if (userAgent.includes(entry)) return true;
  return false;
}
