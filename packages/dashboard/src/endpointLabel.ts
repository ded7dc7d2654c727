/**
 * What an endpoint is called on the key page: HTTPS or WSS only when its URL says so (a gateway
 * with `tls`, or a `publicUrl` behind a TLS proxy), HTTP or WS otherwise.
 *
 * @example
 * endpointLabel('https://rpc.example.org/mainnet/v3/KEY'); // 'HTTPS'
 * endpointLabel('ws://127.0.0.1:8550/eth-devnet/ws/v3/KEY'); // 'WS'
 */
export function endpointLabel(url: string): 'HTTPS' | 'HTTP' | 'WSS' | 'WS' {
  const scheme = url.slice(0, url.indexOf(':')).toLowerCase();
  if (scheme === 'https') return 'HTTPS';
  if (scheme === 'wss') return 'WSS';
  return scheme === 'ws' ? 'WS' : 'HTTP';
}
