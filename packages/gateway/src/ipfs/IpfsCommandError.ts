import type { KuboErrorCode } from './writeIpfsError.js';

/**
 * A failure of a command the gateway answers itself (object/*, pins) or a limit of the route,
 * with the HTTP status and Kubo error code to answer with; `headers` (Retry-After) go with the
 * answer and `refusal` names the limit in the key's usage. Messages never hold credentials or the
 * upstream URL.
 */
export class IpfsCommandError extends Error {
  override readonly name = 'IpfsCommandError';
  readonly headers: Readonly<Record<string, string>>;
  readonly refusal: string | undefined;
  constructor(
    readonly status: number,
    message: string,
    readonly code: KuboErrorCode,
    extra: { headers?: Record<string, string>; refusal?: string } = {},
  ) {
    super(message);
    this.headers = extra.headers ?? {};
    this.refusal = extra.refusal;
  }
}
