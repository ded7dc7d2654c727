import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ConfigError } from '../../config/ConfigError.js';
import type { TlsSettings } from '../../config/types.js';

/** What was loaded, as the startup summary, the reload log and `RunningGateway.tls` show it. */
export interface TlsCertificateSummary {
  /** The file the certificate came from. */
  readonly certFile: string;
  /** The server certificate's subject and issuer, as OpenSSL prints them (`CN=localhost`). */
  readonly subject: string;
  readonly issuer: string;
  /** Its serial number (hex, as OpenSSL prints it). */
  readonly serialNumber: string;
  /** Its SHA-256 fingerprint (`AB:CD:…`), what clients pin. */
  readonly fingerprint256: string;
  /** The names it is valid for (`DNS:localhost, IP Address:127.0.0.1`), or none. */
  readonly subjectAltName: string | undefined;
  readonly validFrom: string;
  readonly validTo: string;
  /** Past its `validTo` when it was loaded: served anyway (clients will refuse it), and warned about. */
  readonly expired: boolean;
  /** Certificates in the file (the server's, then intermediates). */
  readonly chainLength: number;
}

/** A certificate and its key, checked and ready for `https.createServer` / `server.setSecureContext`. */
export interface LoadedTls {
  /** The certificate file's PEM blocks (the server's first, then intermediates). */
  readonly cert: string;
  /** The private key in PEM. Never logged. */
  readonly key: string;
  readonly certificate: TlsCertificateSummary;
}

/** How the two files are named in errors: the config's fields, or the CLI's flags. */
export interface TlsFieldNames {
  readonly certFile: string;
  readonly keyFile: string;
}

/** A PEM file larger than this is not a certificate or a key (and is not read whole). */
const MAX_PEM_BYTES = 1024 * 1024;
const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const CERT_BEGIN = /-----BEGIN CERTIFICATE-----/;
const KEY_BLOCK = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;

/**
 * Reads `settings.certFile` and `settings.keyFile` and checks them the way a client would need
 * them: each file readable and in PEM, the certificate (and any intermediates after it) parseable,
 * the key unencrypted and parseable, the key the certificate's own, and both accepted by OpenSSL.
 * Synchronous (two small files), so the config check, the start and a SIGHUP reload share it.
 * Throws {@link ConfigError} naming the field at fault (`tls.certFile`, `tls.keyFile`, or the
 * CLI's flags when `fields` says so). An expired certificate is loaded (and marked `expired`).
 *
 * @example
 * const tls = loadTlsContext({ certFile: '/etc/nodegate/cert.pem', keyFile: '/etc/nodegate/key.pem' });
 * https.createServer({ cert: tls.cert, key: tls.key }, handler);
 * console.log(tls.certificate.subject, tls.certificate.fingerprint256);
 */
export function loadTlsContext(
  settings: TlsSettings,
  fields: TlsFieldNames = { certFile: 'tls.certFile', keyFile: 'tls.keyFile' },
  now: Date = new Date(),
): LoadedTls {
  const certText = readPem(settings.certFile, fields.certFile);
  const blocks = certText.match(CERT_BLOCK) ?? [];
  if (blocks.length === 0) {
    const hint = KEY_BLOCK.test(certText)
      ? ` (it holds a private key: are ${fields.certFile} and ${fields.keyFile} swapped?)`
      : '';
    throw new ConfigError(
      fields.certFile,
      `${settings.certFile} holds no PEM certificate ("-----BEGIN CERTIFICATE-----")${hint}`,
    );
  }
  const chain = blocks.map((pem, i) => {
    try {
      return new X509Certificate(pem);
    } catch (err) {
      const which = i === 0 ? 'the certificate' : `certificate ${i + 1} of the chain`;
      throw new ConfigError(fields.certFile, `${settings.certFile}: ${which} cannot be parsed: ${messageOf(err)}`);
    }
  });
  const leaf = chain[0]!;

  const keyText = readPem(settings.keyFile, fields.keyFile);
  if (!KEY_BLOCK.test(keyText)) {
    const hint = CERT_BEGIN.test(keyText)
      ? ` (it holds a certificate: are ${fields.certFile} and ${fields.keyFile} swapped?)`
      : '';
    throw new ConfigError(
      fields.keyFile,
      `${settings.keyFile} holds no PEM private key ("-----BEGIN PRIVATE KEY-----")${hint}`,
    );
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(keyText);
  } catch (err) {
    if (/passphrase/i.test(messageOf(err)) || /ENCRYPTED/.test(keyText)) {
      throw new ConfigError(
        fields.keyFile,
        `${settings.keyFile} is encrypted with a passphrase; give nodegate an unencrypted key (openssl pkey -in ${settings.keyFile} -out key.pem) and keep it readable only by the gateway's user`,
      );
    }
    throw new ConfigError(fields.keyFile, `${settings.keyFile}: the private key cannot be parsed: ${messageOf(err)}`);
  }
  if (!leaf.checkPrivateKey(key)) {
    throw new ConfigError(
      fields.keyFile,
      `${settings.keyFile} is not the key of the certificate in ${fields.certFile} (${settings.certFile}, ${leaf.subject.replaceAll('\n', ', ')})`,
    );
  }
  const cert = `${blocks.join('\n')}\n`;
  try {
    // what the listener will do with them: OpenSSL's own checks (key size, algorithms)
    createSecureContext({ cert, key: keyText });
  } catch (err) {
    throw new ConfigError(fields.certFile, `OpenSSL refuses this certificate and key: ${messageOf(err)}`);
  }
  return {
    cert,
    key: keyText,
    certificate: {
      certFile: settings.certFile,
      subject: leaf.subject.replaceAll('\n', ', '),
      issuer: leaf.issuer.replaceAll('\n', ', '),
      serialNumber: leaf.serialNumber,
      fingerprint256: leaf.fingerprint256,
      subjectAltName: leaf.subjectAltName,
      validFrom: new Date(leaf.validFrom).toISOString(),
      validTo: new Date(leaf.validTo).toISOString(),
      expired: new Date(leaf.validTo).getTime() < now.getTime(),
      chainLength: chain.length,
    },
  };
}

function readPem(file: string, field: string): string {
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new ConfigError(field, `${file} is not a regular file`);
    if (st.size > MAX_PEM_BYTES) throw new ConfigError(field, `${file} is larger than 1 MiB: not a PEM file`);
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : messageOf(err);
    throw new ConfigError(field, `cannot read ${file}: ${why}`);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
