import { GatewayError } from '../errors/GatewayError.js';

/**
 * A request refused because its key already has `maxConcurrent` requests in flight and
 * `maxQueued` waiting. A {@link GatewayError} of kind `RATE_LIMITED` (HTTP 429), so it reaches
 * the client as a rate-limit error.
 *
 * @example
 * try { await gate.acquire(keyId); } catch (e) { if (e instanceof KeyGateFullError) reply429(e); }
 */
export class KeyGateFullError extends GatewayError {
  readonly maxConcurrent: number;
  readonly maxQueued: number;

  constructor(maxConcurrent: number, maxQueued: number) {
    super(
      'RATE_LIMITED',
      `too many concurrent requests for this API key: at most ${maxConcurrent} in flight and ${maxQueued} waiting`,
      { data: { maxConcurrent, maxQueued } },
    );
    this.maxConcurrent = maxConcurrent;
    this.maxQueued = maxQueued;
  }
}
