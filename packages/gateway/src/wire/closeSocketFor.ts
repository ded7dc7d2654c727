import { wireError } from './wireError.js';

/** A close reason is at most 123 bytes (RFC 6455: a control frame's payload is 125, 2 are the code). */
const MAX_REASON_BYTES = 123;

/** What an open WebSocket connection writes when a refusal ends it. */
export interface SocketRefusal {
  /** A JSON-RPC error with `id: null`, sent just before the close frame (the whole error, with its data). */
  readonly notice: string;
  /** The close reason: the error's message (and the rule that refused, for 403s), at most 123 bytes. */
  readonly reason: string;
}

/**
 * How a refusal that ends an open WebSocket connection goes on the wire (a revoked key, settings
 * that now refuse the connection or one of its subscriptions, a key over its daily credits): the
 * same JSON-RPC error an HTTP request would get, as a message without an id, then a close frame
 * whose reason repeats it in short. The close code is the caller's (1008 for all of these).
 *
 * @example
 * const { notice, reason } = closeSocketFor(refused('origin'));
 * ws.send(notice);
 * ws.close(1008, reason); // 'rejected due to project ID settings: origin'
 */
export function closeSocketFor(err: unknown): SocketRefusal {
  const { error } = wireError(err);
  const data = error.data as { reason?: unknown; resets_at?: unknown } | undefined;
  let reason = error.message;
  if (typeof data?.reason === 'string') reason = `${reason}: ${data.reason}`;
  else if (typeof data?.resets_at === 'string') reason = `${reason}; resets at ${data.resets_at}`;
  return { notice: JSON.stringify({ jsonrpc: '2.0', id: null, error }), reason: truncate(reason) };
}

function truncate(text: string): string {
  if (Buffer.byteLength(text) <= MAX_REASON_BYTES) return text;
  let out = text.slice(0, MAX_REASON_BYTES);
  while (Buffer.byteLength(out) > MAX_REASON_BYTES) out = out.slice(0, -1);
  return out;
}
