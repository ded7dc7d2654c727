import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../../errors/GatewayError.js';
import { OPEN_SETTINGS } from '../../keys/KeySettings.js';
import { originAllowed } from '../../keys/restrictions/originAllowed.js';
import type { GatewayRecord } from '../GatewayRecord.js';
import type { GatewayDirectory } from './createGatewayDirectory.js';

/** How a request may use a gateway: anything (`open`), or only its account's pinned content. */
export type GatewayAccess = 'open' | 'restricted';

/** The header a gateway token may be sent in (beside `?token=`). */
export const GATEWAY_TOKEN_HEADER = 'x-nodegate-gateway-token';

/**
 * The access a request has to a gateway: `open` for an open gateway, for a valid gateway token
 * (`?token=` or `X-Nodegate-Gateway-Token`), or for a page of an allowed origin (the `Origin`
 * header, else the origin of `Referer`: an `<img>` or `<video>` sends no Origin); `restricted`
 * otherwise. A token that is sent but not one of the gateway's is refused (401), on every mode
 * but `open`, so a mistyped or revoked token says so instead of falling back silently.
 *
 * @example
 * await accessOf(gateway, req.headers, query, directory) // 'restricted'
 */
export async function accessOf(
  gateway: GatewayRecord,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
  directory: Pick<GatewayDirectory, 'tokenValid'>,
): Promise<GatewayAccess> {
  if (gateway.mode === 'open') return 'open';
  const header = headers[GATEWAY_TOKEN_HEADER];
  const token = query.get('token') ?? (typeof header === 'string' ? header : undefined);
  if (token !== undefined && token !== '') {
    if (await directory.tokenValid(gateway.id, token)) return 'open';
    throw new GatewayError('UNAUTHORIZED', 'invalid gateway token: unknown or revoked for this gateway', {
      httpStatus: 401,
      refusal: 'gateway-token',
    });
  }
  if (gateway.allowedOrigins.length > 0) {
    const origin = headers.origin ?? originOfReferer(headers.referer);
    if (origin !== undefined && originAllowed({ ...OPEN_SETTINGS, allowedOrigins: gateway.allowedOrigins }, origin)) {
      return 'open';
    }
  }
  return 'restricted';
}

function originOfReferer(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    const u = new URL(referer);
    return u.origin === 'null' ? undefined : u.origin;
  } catch {
    return undefined;
  }
}
