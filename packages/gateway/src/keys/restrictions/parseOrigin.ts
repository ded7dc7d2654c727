/** An origin split into its parts: lower-case scheme and host, and the effective port. */
export interface ParsedOrigin {
  /** Lower case, without `://` (`https`). */
  readonly scheme: string;
  /** Lower case; an IPv6 address keeps its brackets (`[::1]`). */
  readonly host: string;
  /** The explicit port, else the scheme's default (80/443 for http(s) and ws(s)), else `''`. */
  readonly port: string;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443', ws: '80', wss: '443' };
const SCHEME = /^[a-z][a-z0-9+.-]*$/;
const PORT = /^[0-9]{1,5}$/;
const FORBIDDEN_IN_HOST = /[\s/?#@\\[\]]/;

/**
 * Parses an Origin header (`scheme://host[:port]`, nothing after it). Returns undefined for
 * anything else, including the literal `null` that sandboxed pages send. Scheme and host are
 * lower-cased and the port made explicit, so `HTTPS://App.Example.com:443` and
 * `https://app.example.com` parse the same.
 *
 * @example
 * parseOrigin('https://App.example.com') // { scheme: 'https', host: 'app.example.com', port: '443' }
 * parseOrigin('http://[::1]:8080')       // { scheme: 'http', host: '[::1]', port: '8080' }
 * parseOrigin('null')                    // undefined
 */
export function parseOrigin(text: string): ParsedOrigin | undefined {
  const sep = text.indexOf('://');
  if (sep <= 0) return undefined;
  const scheme = text.slice(0, sep).toLowerCase();
  if (!SCHEME.test(scheme)) return undefined;
  const hostPort = splitHostPort(text.slice(sep + 3));
  if (hostPort === undefined) return undefined;
  return { scheme, host: hostPort.host, port: hostPort.port || (DEFAULT_PORTS[scheme] ?? '') };
}

/**
 * Splits `host[:port]` (IPv6 in brackets) into a lower-case host and the explicit port
 * (`''` when there is none). Undefined when malformed.
 *
 * @example
 * splitHostPort('App.example.com:8080') // { host: 'app.example.com', port: '8080' }
 */
export function splitHostPort(text: string): { host: string; port: string } | undefined {
  let host: string;
  let rest: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 2) return undefined;
    host = text.slice(0, close + 1);
    if (!/^\[[0-9a-fA-F:.]+\]$/.test(host)) return undefined;
    rest = text.slice(close + 1);
  } else {
    const colon = text.indexOf(':');
    host = colon === -1 ? text : text.slice(0, colon);
    rest = colon === -1 ? '' : text.slice(colon);
    if (host.length === 0 || FORBIDDEN_IN_HOST.test(host)) return undefined;
  }
  let port = '';
  if (rest.length > 0) {
    if (rest.charCodeAt(0) !== 0x3a || !PORT.test(rest.slice(1))) return undefined;
    const n = Number(rest.slice(1));
    if (n > 65535) return undefined;
    port = String(n);
  }
  return { host: host.toLowerCase(), port };
}
