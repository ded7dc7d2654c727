/**
 * A JSON value kept as the upstream's text, so a large result (a block, a page of logs)
 * is not parsed and re-serialised when nodegate does not change it.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Serialises a JSON-RPC response; a RawJson result is spliced in as it is. */
export function serializeResponse(response: {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: unknown;
}): string {
  if (response.result instanceof RawJson) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(response.id)},"result":${response.result.text}}`;
  }
  return JSON.stringify(response);
}
