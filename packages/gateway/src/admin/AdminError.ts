/**
 * An admin API refusal: HTTP status, stable `code`, a message safe to show (never a secret),
 * and the request field it is about. Answered as `{ "error": { code, message, field? } }`.
 *
 * @example
 * throw new AdminError(403, 'forbidden', 'viewers cannot change keys');
 */
export class AdminError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AdminError';
  }

  /** The wire body. */
  toBody(): { error: { code: string; message: string; field?: string } } {
    return { error: { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) } };
  }
}
