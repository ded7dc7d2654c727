import { GatewayError } from '../errors/GatewayError.js';

/**
 * The database did not answer within its deadline (`database.queryTimeoutMs`), could not be
 * reached, or is known to be away (its health is down), so an answer that needs it cannot be
 * given now. On the wire: JSON-RPC -32603 with HTTP 503 and `Retry-After: 1`
 * (`DATABASE_UNAVAILABLE`); the admin API answers 503 `{ error: { code: "unavailable" } }`.
 * `statusCode` is for Fastify's error handlers.
 *
 * @example
 * throw new DatabaseUnavailableError('the database did not answer within 5000 ms');
 */
export class DatabaseUnavailableError extends GatewayError {
  readonly statusCode = 503;
  constructor(message: string, cause?: unknown) {
    super('DATABASE_UNAVAILABLE', message, {
      retryAfterSeconds: 1,
      data: { reason: 'database-unavailable' },
      ...(cause === undefined ? {} : { cause }),
    });
  }
}
