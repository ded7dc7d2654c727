/**
 * A numeric JSON-RPC id kept as the exact text the client sent (`1e400`, a 30-digit integer,
 * `-0`, `1.0`): JSON.parse would turn it into a double that serialises differently (or as
 * `null`), and JSON-RPC requires the id to be echoed as sent. {@link serializeResponse} splices
 * `text` into the response as it is.
 *
 * Only numeric ids whose canonical JavaScript text differs from the source text become a
 * RawId; strings and ordinary integers stay plain values.
 *
 * `toJSON` returns the (lossy) number, so code that still serialises a response with
 * `JSON.stringify` keeps the old behaviour instead of emitting `{"text":…}`.
 *
 * @example
 * const id = new RawId('123456789012345678901234567890');
 * serializeResponse({ jsonrpc: '2.0', id, result: '0x1' });
 * // '{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":"0x1"}'
 */
export class RawId {
  /** @param text the id's JSON source text: a valid JSON number token. */
  constructor(readonly text: string) {}

  /** The id as a JavaScript number (lossy; used only by plain JSON.stringify). */
  toJSON(): number {
    return Number(this.text);
  }
}
