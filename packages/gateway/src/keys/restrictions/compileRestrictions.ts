import type { KeySettings } from '../KeySettings.js';
import { normalizeContractAddress } from './normalizeContractAddress.js';
import { parseOrigin, splitHostPort } from './parseOrigin.js';

/** One compiled entry of `allowedOrigins`. */
export interface OriginRule {
  /** Required scheme, or undefined for any (a bare host entry). */
  readonly scheme: string | undefined;
  /** Exact host, or (with `wildcard`) the suffix `.example.com` a subdomain must end with. */
  readonly host: string;
  readonly wildcard: boolean;
  /** Required effective port, or undefined for any. */
  readonly port: string | undefined;
}

/** A key's settings, compiled once for the checks that run on every request. */
export interface CompiledRestrictions {
  /** No allowlist restricts anything: every check passes. */
  readonly open: boolean;
  /** The list is non-empty (a request must match one of its entries). */
  readonly restrictsOrigin: boolean;
  readonly origins: readonly OriginRule[];
  readonly restrictsMethod: boolean;
  readonly methods: ReadonlySet<string>;
  readonly restrictsContract: boolean;
  /** Normalised by {@link normalizeContractAddress}. */
  readonly contracts: ReadonlySet<string>;
}

const cache = new WeakMap<KeySettings, CompiledRestrictions>();

/**
 * The compiled form of a key's allowlists, built on first use and cached for as long as the
 * settings object lives (settings are immutable: a change makes a new object). Entries that
 * cannot be parsed are dropped, so they match nothing, while the list still counts as
 * non-empty (a malformed list refuses rather than opens).
 *
 * @example
 * const c = compileRestrictions({ ...OPEN_SETTINGS, allowedMethods: ['eth_call'] });
 * c.methods.has('eth_call') // true
 */
export function compileRestrictions(settings: KeySettings): CompiledRestrictions {
  let compiled = cache.get(settings);
  if (compiled === undefined) {
    compiled = compile(settings);
    cache.set(settings, compiled);
  }
  return compiled;
}

function compile(settings: KeySettings): CompiledRestrictions {
  const origins: OriginRule[] = [];
  for (const entry of settings.allowedOrigins) {
    const rule = compileOrigin(entry.trim());
    if (rule !== undefined) origins.push(rule);
  }
  const contracts = new Set<string>();
  for (const entry of settings.allowedContracts) {
    const normalized = normalizeContractAddress(entry.trim());
    if (normalized !== undefined) contracts.add(normalized);
  }
  const restrictsOrigin = settings.allowedOrigins.length > 0;
  const restrictsMethod = settings.allowedMethods.length > 0;
  const restrictsContract = settings.allowedContracts.length > 0;
  return {
    open: !restrictsOrigin && settings.allowedUserAgents.length === 0 && !restrictsMethod && !restrictsContract,
    restrictsOrigin,
    origins,
    restrictsMethod,
    methods: new Set(settings.allowedMethods),
    restrictsContract,
    contracts,
  };
}

/** `https://app.example.com[:port]`, `app.example.com[:port]`, `*.example.com`, `https://*.example.com`. */
function compileOrigin(entry: string): OriginRule | undefined {
  let text = entry.endsWith('/') ? entry.slice(0, -1) : entry;
  let scheme: string | undefined;
  let defaultPort = '';
  const sep = text.indexOf('://');
  if (sep !== -1) {
    // Parse with a placeholder host to learn the scheme's default port.
    const probe = parseOrigin(`${text.slice(0, sep)}://h`);
    if (probe === undefined) return undefined;
    scheme = probe.scheme;
    defaultPort = probe.port;
    text = text.slice(sep + 3);
  }
  const wildcard = text.startsWith('*.');
  const hostPort = splitHostPort(wildcard ? text.slice(2) : text);
  if (hostPort === undefined) return undefined;
  let host = hostPort.host;
  if (!host.startsWith('[')) {
    host = domainToAscii(host);
    if (host === '') return undefined;
  } else if (wildcard) {
    return undefined;
  }
  const port = hostPort.port || (scheme !== undefined ? defaultPort : '') || undefined;
  return { scheme, host: wildcard ? `.${host}` : host, wildcard, port };
}

function domainToAscii(host: string): string {
  // Browsers send the ASCII (punycode) form in Origin; an entry may be written in Unicode.
  if (/^[\x21-\x7e]*$/.test(host)) return host;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}
