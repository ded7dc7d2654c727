const decoder = new TextDecoder();

/**
 * A JSON value kept as the upstream's text, so a large result (a block, a page of logs)
 * is not parsed and re-serialised when nodegate does not change it. A result answered from the
 * cache may be kept as its UTF-8 `bytes` instead (`new RawJson(undefined, bytes)`): an HTTP answer writes
 * them as they are (no string is built, measured or encoded per hit), and `text` is decoded
 * from them only when something asks for it (a batch, a WebSocket message).
 *
 * @example
 * serializeResponse({ jsonrpc: '2.0', id: 1, result: new RawJson('{"number":"0x1"}') });
 * // '{"jsonrpc":"2.0","id":1,"result":{"number":"0x1"}}'
 */
export class RawJson {
  #text: string | undefined;
  /** The value's UTF-8 bytes, when it was kept as bytes (never a different value from `text`). */
  readonly bytes: Uint8Array | undefined;

  /**
   * @param text the value's JSON text.
   * @param bytes instead of `text`, the same value as UTF-8 (a cache entry's prepared form).
   */
  constructor(text: string);
  constructor(text: undefined, bytes: Uint8Array);
  constructor(text: string | undefined, bytes?: Uint8Array) {
    this.#text = text;
    this.bytes = bytes;
  }

  /** The value's JSON text. */
  get text(): string {
    if (this.#text === undefined) this.#text = decoder.decode(this.bytes);
    return this.#text;
  }
}
