import type { KeySettings } from '../KeySettings.js';
import { compileRestrictions } from './compileRestrictions.js';
import { parseOrigin } from './parseOrigin.js';

/**
 * Whether the request's Origin header passes the key's `allowedOrigins`. An empty list allows
 * every request. Otherwise the Origin must be present and match one entry:
 * - `https://app.example.com` — scheme, host and port exactly (default ports implied);
 * - `app.example.com` — that host with any scheme and port (`app.example.com:8080` pins the port);
 * - `*.example.com` — any subdomain of example.com at any depth, not example.com itself
 *   (`https://*.example.com` also pins the scheme).
 * Hosts compare case-insensitively. A missing or malformed Origin (including `null`) is refused.
 *
 * @example
 * const s = { ...OPEN_SETTINGS, allowedOrigins: ['*.example.com'] };
 * originAllowed(s, 'https://app.example.com') // true
 * originAllowed(s, 'https://example.com')     // false
 * originAllowed(s, undefined)                 // false
 */
export function originAllowed(settings: KeySettings, origin: string | undefined): boolean {
  const compiled = compileRestrictions(settings);
  if (!compiled.restrictsOrigin) return true;
  if (origin === undefined) return false;
  const parsed = parseOrigin(origin);
  if (parsed === undefined) return false;
  const { scheme, host, port } = parsed;
  for (const rule of compiled.origins) {
    if (rule.scheme !== undefined && rule.scheme !== scheme) continue;
    if (rule.port !== undefined && rule.port !== port) continue;
    if (rule.wildcard ? host.length > rule.host.length && host.endsWith(rule.host) : host === rule.host) return true;
  }
  return false;
}
