/** Test helper: a raw JSON-RPC client (for checks starknet.js does not expose). */

/** Result or error of one raw JSON-RPC call. */
export interface RawResponse {
  result?: any;
  error?: { code: number; message: string; data?: unknown };
}

/** POST one JSON-RPC request and return the response envelope. */
export async function rawRpc(url: string, method: string, params: unknown = {}): Promise<RawResponse> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as RawResponse;
}

/** POST one JSON-RPC request and return its result, throwing on error. */
export async function rpcResult(url: string, method: string, params: unknown = {}): Promise<any> {
  const r = await rawRpc(url, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.code} ${r.error.message} ${JSON.stringify(r.error.data)}`);
  return r.result;
}
