import { isIP } from 'node:net';
import { ConfigError } from './ConfigError.js';

/** At most this many entries: a list of proxies, not of clients. */
const MAX_ENTRIES = 64;

/**
 * Reads `trustedProxies`: the addresses (`10.0.0.5`, `::1`) and CIDR ranges (`10.0.0.0/8`,
 * `fd00::/8`) of the reverse proxies in front of the gateway, whose `X-Forwarded-For` and
 * `X-Forwarded-Proto` headers are believed (a client's address for sign-in limits; https for the
 * session cookie's `Secure`). Absent or empty: no proxy is trusted and those headers are ignored.
 * Entries are returned as written (lowercase); a bad one fails at startup naming its index.
 *
 * @example
 * parseTrustedProxies(['127.0.0.1', '10.0.0.0/8'], 'trustedProxies'); // ['127.0.0.1', '10.0.0.0/8']
 */
export function parseTrustedProxies(raw: unknown, at: string): readonly string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError(at, 'must be a list of IP addresses or CIDR ranges');
  if (raw.length > MAX_ENTRIES) throw new ConfigError(at, `at most ${MAX_ENTRIES} entries`);
  return raw.map((entry, i) => {
    const where = `${at}[${i}]`;
    if (typeof entry !== 'string') throw new ConfigError(where, 'must be an IP address or CIDR range as a string');
    const text = entry.trim().toLowerCase();
    const slash = text.indexOf('/');
    const address = slash === -1 ? text : text.slice(0, slash);
    const family = isIP(address);
    if (family === 0) {
      throw new ConfigError(
        where,
        `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)`,
      );
    }
    if (slash !== -1) {
      const bits = text.slice(slash + 1);
      const max = family === 4 ? 32 : 128;
      if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) {
        throw new ConfigError(where, `"${entry}": the prefix length must be an integer from 0 to ${max}`);
      }
    }
    return text;
  });
}
