/**
 * A snap in real MetaMask calls nodegate from an iframe whose requests carry `Origin: null`; the browser lets the
 * snap read the answer only when nodegate answers CORS. Checked against nodegate (not against the bare dev chain,
 * which is not what the snap calls in production).
 */
import { backend } from './helpers';

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'starknet_chainId', params: {} });

if (backend.kind === 'gateway') {
  describe('nodegate CORS for the snap', () => {
    it('answers a preflight from Origin: null for a JSON POST', async () => {
      const res = await fetch(backend.rpcUrl, {
        method: 'OPTIONS',
        headers: {
          Origin: 'null',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
      expect(res.status).toBeLessThan(300);
      expect(['*', 'null']).toContain(res.headers.get('access-control-allow-origin'));
      expect((res.headers.get('access-control-allow-methods') ?? '').toUpperCase()).toContain('POST');
      expect((res.headers.get('access-control-allow-headers') ?? '*').toLowerCase()).toMatch(/content-type|\*/);
    });
    it('lets an Origin: null POST read its answer', async () => {
      const res = await fetch(backend.rpcUrl, {
        method: 'POST',
        headers: { Origin: 'null', 'content-type': 'application/json' },
        body,
      });
      expect(['*', 'null']).toContain(res.headers.get('access-control-allow-origin'));
      expect(((await res.json()) as { result: string }).result).toBe(backend.chainId);
    });
  });
} else {
  describe('nodegate CORS for the snap', () => {
    it('is checked only when the e2e backend is nodegate (the bare dev chain is never called by a real snap)', () => {
      expect(backend.kind).toBe('devchain');
    });
  });
}
