/**
 * The error a call failed with, marked with the requests sent upstream for it (`attempts`, read
 * by the request path for `X-Nodegate-Attempts`, the access log and the request explorer). Only
 * errors made for this call are marked (every error of the network is: a node's JSON-RPC answer
 * is a new `UpstreamRpcError` per attempt); anything else passes unchanged.
 *
 * @example
 * throw withAttempts(err, call.attempts);
 */
export function withAttempts(err: unknown, attempts: number): unknown {
  if (err instanceof Error && err.name !== 'ClientGoneError') Object.assign(err, { attempts });
  return err;
}
