import { X509Certificate } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';

/** `fetch`'s shape, as the admin client's transport takes it. */
export type PinnedFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<Response>;

/**
 * A `fetch` that trusts exactly one server certificate, the first of `certPem` (the gateway's,
 * from `<dataDir>/admin.json`), whatever its issuer and whatever host name the URL uses: how the
 * CLI reaches the admin API of a gateway it runs beside on `https://127.0.0.1:PORT` with a
 * certificate made for another name, or self-signed. Any other certificate is refused (the
 * request fails as unreachable), so a process that took over the port cannot read the admin token.
 *
 * @example
 * const send = createPinnedFetch(readFileSync('/etc/nodegate/cert.pem', 'utf8'));
 * const res = await send('https://127.0.0.1:8550/admin/api/v1/plans', { method: 'GET', headers: {} });
 */
export function createPinnedFetch(certPem: string): PinnedFetch {
  const pinned = new X509Certificate(certPem).fingerprint256;
  const dispatcher = new Agent({
    connect: {
      // the chain is checked up to this certificate (a trust anchor of its own), then pinned
      ca: certPem,
      allowPartialTrustChain: true,
      checkServerIdentity: (_host: string, peer: PeerCertificate) =>
        peer.fingerprint256 === pinned
          ? undefined
          : new Error(`the server's certificate (${peer.fingerprint256}) is not the gateway's (${pinned})`),
    },
  });
  return (url, init) => undiciFetch(url, { ...init, dispatcher }) as unknown as Promise<Response>;
}
