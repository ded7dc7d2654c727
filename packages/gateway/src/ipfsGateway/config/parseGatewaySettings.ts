import { ConfigError } from '../../config/ConfigError.js';
import { DEFAULT_GATEWAY_SETTINGS, type IpfsGatewaySettings } from './IpfsGatewaySettings.js';

const KNOWN = [
  'enabled',
  'pathPrefix',
  'domain',
  'timeoutMs',
  'requestCredits',
  'maxListingEntries',
  'fileCacheBytes',
  'fileCacheMaxFileBytes',
  'maxConcurrentPerAccount',
  'maxQueuedPerAccount',
];
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);

function int(v: unknown, at: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new ConfigError(at, `must be an integer from ${min} to ${max}`);
  }
  return v;
}

/**
 * `ipfs.gateways` of the config: checked once, defaults filled in (see
 * {@link DEFAULT_GATEWAY_SETTINGS}); errors name the field. `pathPrefix` is one path segment and
 * must differ from the IPFS API's own prefix; `domain` is a host name (lower case, no port).
 *
 * @example
 * parseGatewaySettings({ domain: 'gw.example.com' }, 'ipfs.gateways', '/ipfs').domain // 'gw.example.com'
 */
export function parseGatewaySettings(raw: unknown, at: string, apiPrefix: string | undefined): IpfsGatewaySettings {
  if (raw === undefined) {
    if (apiPrefix === DEFAULT_GATEWAY_SETTINGS.pathPrefix) {
      throw new ConfigError(
        `${at}.pathPrefix`,
        `"${apiPrefix}" is the IPFS API's pathPrefix: give the gateways another`,
      );
    }
    return DEFAULT_GATEWAY_SETTINGS;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(at, 'must be an object');
  const g = raw as Record<string, unknown>;
  for (const k of Object.keys(g)) {
    if (!KNOWN.includes(k)) throw new ConfigError(`${at}.${k}`, `unknown field (known: ${KNOWN.join(', ')})`);
  }
  let enabled = DEFAULT_GATEWAY_SETTINGS.enabled;
  if (g.enabled !== undefined) {
    if (typeof g.enabled !== 'boolean') throw new ConfigError(`${at}.enabled`, 'must be true or false');
    enabled = g.enabled;
  }
  let pathPrefix = DEFAULT_GATEWAY_SETTINGS.pathPrefix;
  if (g.pathPrefix !== undefined) {
    if (typeof g.pathPrefix !== 'string' || !/^\/[A-Za-z0-9._-]+$/.test(g.pathPrefix)) {
      throw new ConfigError(`${at}.pathPrefix`, 'must be one path segment starting with "/", e.g. "/ipfs-gateway"');
    }
    pathPrefix = g.pathPrefix;
  }
  if (['/v3', '/ws', '/api', '/health', '/admin', '/dashboard', '/metrics'].includes(pathPrefix)) {
    throw new ConfigError(`${at}.pathPrefix`, `"${pathPrefix}" is reserved`);
  }
  if (pathPrefix === apiPrefix) {
    throw new ConfigError(
      `${at}.pathPrefix`,
      `"${pathPrefix}" is the IPFS API's pathPrefix: give the gateways another`,
    );
  }
  let domain: string | undefined;
  if (g.domain !== undefined) {
    if (typeof g.domain !== 'string' || !DOMAIN.test(g.domain.toLowerCase()) || g.domain.length > 200) {
      throw new ConfigError(`${at}.domain`, 'must be a host name without scheme or port, e.g. "gw.example.com"');
    }
    domain = g.domain.toLowerCase();
  }
  /** An integer field in [min, max], or its default when absent. */
  const field = (
    name:
      | 'timeoutMs'
      | 'requestCredits'
      | 'maxListingEntries'
      | 'fileCacheBytes'
      | 'fileCacheMaxFileBytes'
      | 'maxConcurrentPerAccount'
      | 'maxQueuedPerAccount',
    min: number,
    max: number,
  ) => (g[name] === undefined ? DEFAULT_GATEWAY_SETTINGS[name] : int(g[name], `${at}.${name}`, min, max));
  return Object.freeze({
    enabled,
    pathPrefix,
    domain,
    timeoutMs: field('timeoutMs', 100, 600_000),
    requestCredits: field('requestCredits', 0, 1_000_000),
    maxListingEntries: field('maxListingEntries', 1, 1_000_000),
    fileCacheBytes: field('fileCacheBytes', 0, 4 * 1024 ** 3),
    fileCacheMaxFileBytes: field('fileCacheMaxFileBytes', 0, 256 * 1024 ** 2),
    maxConcurrentPerAccount: field('maxConcurrentPerAccount', 1, 100_000),
    maxQueuedPerAccount: field('maxQueuedPerAccount', 0, 1_000_000),
  });
}
