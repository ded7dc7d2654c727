import type { KuboErrorCode } from './writeIpfsError.js';

/**
 * A failure of a command the gateway answers itself (object/*), with the HTTP status and
 * Kubo error code to answer with. Messages never hold credentials or the upstream URL.
 */
export class IpfsCommandError extends Error {
  override readonly name = 'IpfsCommandError';
  constructor(
    readonly status: number,
    message: string,
    readonly code: KuboErrorCode,
  ) {
    super(message);
  }
}
