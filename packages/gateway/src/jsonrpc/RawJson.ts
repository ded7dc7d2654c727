/**
 * A JSON value kept as the upstream's text, so a large result (a block, a page of logs)
 * is not parsed and re-serialised when nodegate does not change it.
 *
 * @example
 * serializeResponse({ jsonrpc: '2.0', id: 1, result: new RawJson('{"number":"0x1"}') });
 * // '{"jsonrpc":"2.0","id":1,"result":{"number":"0x1"}}'
 */
export class RawJson {
  constructor(readonly text: string) {}
}
