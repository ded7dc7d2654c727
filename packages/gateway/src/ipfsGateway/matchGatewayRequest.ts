import type { IpfsGatewaySettings } from './config/IpfsGatewaySettings.js';

/** A request for a dedicated gateway, by the form it came in. */
export type GatewayMatch =
  /** `<pathPrefix>/<name>/…`: `rest` is the path after `<pathPrefix>/<name>` (`/ipfs/<cid>/…`). */
  | { readonly form: 'path'; readonly name: string; readonly base: string; readonly rest: string }
  /** `Host: <name>.ipfs.<domain>`: the whole path is the gateway's. */
  | { readonly form: 'host'; readonly name: string; readonly base: ''; readonly rest: string }
  /** `Host: <label>.ipfs.<name>.ipfs.<domain>`: `label` names the content root, the path is below it. */
  | {
      readonly form: 'subdomain';
      readonly name: string;
      readonly label: string;
      readonly base: '';
      readonly rest: string;
    }
  /** A host under `.ipfs.<domain>` that is neither form. */
  | { readonly form: 'unknown-host'; readonly name: ''; readonly base: ''; readonly rest: string };

/**
 * Whether a request (its Host header and normalised path) is for a dedicated gateway, and in which
 * form: the path form (`/ipfs-gateway/<name>/ipfs/<cid>/…`, on any host), or, with a `domain`,
 * the host form `<name>.ipfs.<domain>` and the subdomain form `<cid>.ipfs.<name>.ipfs.<domain>`.
 * Hosts compare case-insensitively, without the port. Undefined: not a gateway request.
 *
 * @example
 * matchGatewayRequest('127.0.0.1:8550', '/ipfs-gateway/dev/ipfs/bafy…', settings) // { form: 'path', name: 'dev', … }
 * matchGatewayRequest('bafy….ipfs.dev.ipfs.localhost:8550', '/', settings)      // { form: 'subdomain', label: 'bafy…', … }
 */
export function matchGatewayRequest(
  host: string | undefined,
  path: string,
  settings: Pick<IpfsGatewaySettings, 'pathPrefix' | 'domain'>,
): GatewayMatch | undefined {
  if (settings.domain !== undefined && host !== undefined) {
    const bare = host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase();
    const suffix = `.ipfs.${settings.domain}`;
    if (bare.endsWith(suffix) && bare.length > suffix.length) {
      const labels = bare.slice(0, -suffix.length).split('.');
      if (labels.length === 1) return { form: 'host', name: labels[0]!, base: '', rest: path };
      if (labels.length === 3 && labels[1] === 'ipfs') {
        return { form: 'subdomain', name: labels[2]!, label: labels[0]!, base: '', rest: path };
      }
      return { form: 'unknown-host', name: '', base: '', rest: path };
    }
  }
  const prefix = `${settings.pathPrefix}/`;
  if (path.startsWith(prefix)) {
    const after = path.slice(prefix.length);
    const slash = after.indexOf('/');
    const name = slash < 0 ? after : after.slice(0, slash);
    return { form: 'path', name, base: `${prefix}${name}`, rest: slash < 0 ? '' : after.slice(slash) };
  }
  if (path === settings.pathPrefix) return { form: 'path', name: '', base: settings.pathPrefix, rest: '' };
  return undefined;
}
