import type { TlsCertificateSummary } from './loadTlsContext.js';

/**
 * One line saying which certificate is served: its subject, names, serial, SHA-256 fingerprint,
 * validity and file (for the startup summary and the SIGHUP reload's log). Holds nothing secret.
 *
 * @example
 * describeCertificate(loadTlsContext(config.tls).certificate)
 * // 'CN=localhost (DNS:localhost, IP Address:127.0.0.1), serial 01, SHA-256 AB:…:EF, valid until 2027-05-01T00:00:00.000Z, from /etc/nodegate/cert.pem'
 */
export function describeCertificate(c: TlsCertificateSummary): string {
  const names = c.subjectAltName ? ` (${c.subjectAltName})` : '';
  const validity = c.expired ? `EXPIRED on ${c.validTo}` : `valid until ${c.validTo}`;
  return `${c.subject}${names}, serial ${c.serialNumber}, SHA-256 ${c.fingerprint256}, ${validity}, from ${c.certFile}`;
}
