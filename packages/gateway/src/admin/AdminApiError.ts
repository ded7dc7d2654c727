/**
 * An admin API answer that was not a success, as `adminClient` throws it: the HTTP status
 * (0 when the gateway could not be reached), the API's error code, message and field.
 *
 * @example
 * try { await client.revokeKey(key); } catch (e) { if (e instanceof AdminApiError && e.status === 409) … }
 */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}
