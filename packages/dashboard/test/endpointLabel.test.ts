import { describe, expect, it } from 'vitest';
import { endpointLabel } from '../src/endpointLabel.js';
import { endpointsOf } from '../src/snippets.js';
import type { DashboardConfig } from '../src/types.js';

// The key page labels its endpoints after their URLs (issue 21: "HTTPS"/"WSS" were shown beside
// http:// and ws:// URLs); the gateway's /dashboard/config.json gives https/wss URLs with tls.

const KEY = '0123456789abcdef0123456789abcdef';
const configFor = (http: string, ws: string): DashboardConfig => ({
  networks: { 'eth-devnet': { family: 'eth', http: `${http}/eth-devnet`, ws: `${ws}/eth-devnet` } },
  ipfs: null,
  adminUrl: `${http}/admin/api/v1`,
});

describe('endpointLabel', () => {
  it('says HTTP and WS for a gateway without TLS', () => {
    const [e] = endpointsOf(configFor('http://127.0.0.1:8550', 'ws://127.0.0.1:8550'), KEY);
    expect([endpointLabel(e!.https), endpointLabel(e!.wss)]).toEqual(['HTTP', 'WS']);
  });

  it('says HTTPS and WSS when the URLs are https:// and wss://', () => {
    const [e] = endpointsOf(configFor('https://127.0.0.1:8550', 'wss://127.0.0.1:8550'), KEY);
    expect([endpointLabel(e!.https), endpointLabel(e!.wss)]).toEqual(['HTTPS', 'WSS']);
    expect(endpointLabel('HTTPS://rpc.example.org/v3/KEY')).toBe('HTTPS');
  });
});
