import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:https';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/ConfigError.js';
import { validateConfig } from '../../config/validateConfig.js';
import { createPinnedFetch } from './createPinnedFetch.js';
import { createTestCertificates, type TestCertificates, type TestServerCertificate } from './createTestCertificates.js';
import { describeCertificate } from './describeCertificate.js';
import { loadTlsContext } from './loadTlsContext.js';

let pki: TestCertificates;
let a: TestServerCertificate;
let b: TestServerCertificate;

beforeAll(async () => {
  pki = await createTestCertificates();
  a = await pki.issue('a', '1001');
  b = await pki.issue('b', '1002');
});

afterAll(async () => {
  await pki?.remove();
});

/** The ConfigError `fn` throws (fails the test when it throws nothing or something else). */
function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

const file = async (name: string, text: string) => {
  const path = join(pki.dir, name);
  await writeFile(path, text);
  return path;
};

describe('loadTlsContext', () => {
  it('loads a certificate and its key and says what they are', () => {
    const loaded = loadTlsContext(a);
    const x509 = new X509Certificate(a.cert);
    expect(loaded.certificate).toEqual({
      certFile: a.certFile,
      subject: 'CN=localhost',
      issuer: 'CN=nodegate test CA',
      serialNumber: '1001',
      fingerprint256: x509.fingerprint256,
      subjectAltName: 'DNS:localhost, IP Address:127.0.0.1',
      validFrom: new Date(x509.validFrom).toISOString(),
      validTo: new Date(x509.validTo).toISOString(),
      expired: false,
      chainLength: 1,
    });
    expect(loaded.cert).toContain('-----BEGIN CERTIFICATE-----');
    expect(loaded.key).toMatch(/-----BEGIN PRIVATE KEY-----/);
    expect(describeCertificate(loaded.certificate)).toBe(
      `CN=localhost (DNS:localhost, IP Address:127.0.0.1), serial 1001, SHA-256 ${x509.fingerprint256}, valid until ${loaded.certificate.validTo}, from ${a.certFile}`,
    );
  });

  it('keeps a chain file whole (the server certificate first, then intermediates)', async () => {
    const chain = await file('fullchain.pem', `${a.cert}${pki.ca}`);
    const loaded = loadTlsContext({ certFile: chain, keyFile: a.keyFile });
    expect(loaded.certificate.chainLength).toBe(2);
    expect(loaded.certificate.serialNumber).toBe('1001');
    expect(loaded.cert.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
  });

  it('marks a certificate past its validTo as expired (served, and warned about)', () => {
    const later = new Date(Date.now() + 10 * 86_400_000);
    const loaded = loadTlsContext(a, undefined, later);
    expect(loaded.certificate.expired).toBe(true);
    expect(describeCertificate(loaded.certificate)).toContain(`EXPIRED on ${loaded.certificate.validTo}`);
  });

  it('a missing certificate file names tls.certFile and says why', () => {
    const missing = join(pki.dir, 'missing.pem');
    const err = configErrorOf(() => loadTlsContext({ certFile: missing, keyFile: a.keyFile }));
    expect(err.field).toBe('tls.certFile');
    expect(err.message).toBe(`tls.certFile: cannot read ${missing}: no such file`);
  });

  it('a directory, or a file that is no PEM certificate, names tls.certFile', async () => {
    expect(configErrorOf(() => loadTlsContext({ certFile: pki.dir, keyFile: a.keyFile })).message).toBe(
      `tls.certFile: ${pki.dir} is not a regular file`,
    );
    const junk = await file('junk.pem', 'hello, I am not a certificate\n');
    const err = configErrorOf(() => loadTlsContext({ certFile: junk, keyFile: a.keyFile }));
    expect(err.field).toBe('tls.certFile');
    expect(err.message).toContain('holds no PEM certificate');
    const broken = await file('broken.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const parse = configErrorOf(() => loadTlsContext({ certFile: broken, keyFile: a.keyFile }));
    expect(parse.field).toBe('tls.certFile');
    expect(parse.message).toContain('the certificate cannot be parsed');
  });

  it('swapped files: the error names the field and says they look swapped', () => {
    const err = configErrorOf(() => loadTlsContext({ certFile: a.keyFile, keyFile: a.certFile }));
    expect(err.field).toBe('tls.certFile');
    expect(err.message).toContain('are tls.certFile and tls.keyFile swapped?');
    const keyErr = configErrorOf(() => loadTlsContext({ certFile: a.certFile, keyFile: b.certFile }));
    expect(keyErr.field).toBe('tls.keyFile');
    expect(keyErr.message).toContain('swapped?');
  });

  it('a key that is not the certificate’s names tls.keyFile', () => {
    const err = configErrorOf(() => loadTlsContext({ certFile: a.certFile, keyFile: b.keyFile }));
    expect(err.field).toBe('tls.keyFile');
    expect(err.message).toBe(
      `tls.keyFile: ${b.keyFile} is not the key of the certificate in tls.certFile (${a.certFile}, CN=localhost)`,
    );
  });

  it('an encrypted key names tls.keyFile and says how to decrypt it', () => {
    const encrypted = join(pki.dir, 'encrypted.key');
    execFileSync('openssl', ['pkey', '-in', a.keyFile, '-aes256', '-passout', 'pass:hunter2', '-out', encrypted]);
    const err = configErrorOf(() => loadTlsContext({ certFile: a.certFile, keyFile: encrypted }));
    expect(err.field).toBe('tls.keyFile');
    expect(err.message).toContain('is encrypted with a passphrase');
    expect(err.message).toContain(`openssl pkey -in ${encrypted} -out key.pem`);
  });

  it('names the CLI flags when asked to', () => {
    const missing = join(pki.dir, 'nope.pem');
    const err = configErrorOf(() =>
      loadTlsContext({ certFile: missing, keyFile: a.keyFile }, { certFile: '--tls-cert', keyFile: '--tls-key' }),
    );
    expect(err.message).toBe(`--tls-cert: cannot read ${missing}: no such file`);
  });
});

describe('the tls section of the config', () => {
  const base = {
    networks: [{ name: 'n', family: 'eth', pathPrefix: '/n', upstreams: [{ name: 'u', http: 'http://127.0.0.1:1' }] }],
  };

  it('is checked at validation (what `nodegate config check` runs), paths kept absolute', () => {
    const config = validateConfig({
      ...base,
      tls: { certFile: relative(process.cwd(), a.certFile), keyFile: a.keyFile },
    });
    expect(config.tls).toEqual({ certFile: a.certFile, keyFile: a.keyFile });
    expect(Object.isFrozen(config.tls)).toBe(true);
    expect(validateConfig(base).tls).toBeUndefined();
  });

  it('a bad certificate fails the config naming tls.certFile; a missing or unknown field is named too', async () => {
    const junk = await file('junk2.pem', 'not a certificate');
    expect(configErrorOf(() => validateConfig({ ...base, tls: { certFile: junk, keyFile: a.keyFile } })).field).toBe(
      'tls.certFile',
    );
    expect(configErrorOf(() => validateConfig({ ...base, tls: { certFile: a.certFile } })).message).toBe(
      'tls.keyFile: must be the path of a PEM file',
    );
    expect(
      configErrorOf(() => validateConfig({ ...base, tls: { certFile: a.certFile, keyFile: a.keyFile, caFile: 'x' } }))
        .message,
    ).toBe('tls.caFile: unknown field (known: certFile, keyFile)');
    expect(configErrorOf(() => validateConfig({ ...base, tls: 'cert.pem' })).field).toBe('tls');
  });
});

describe('createPinnedFetch (how the CLI reaches a TLS gateway beside it)', () => {
  it('trusts exactly the pinned certificate, whatever host name it was made for', async () => {
    // a certificate for another name, served on 127.0.0.1: a CA-verifying client refuses it
    const other = await pki.issue('other', '2001', { subjectAltName: 'DNS:gateway.example' });
    const loaded = loadTlsContext(other);
    const server = createServer({ cert: loaded.cert, key: loaded.key }, (req, res) => res.end(`ok ${req.url}`));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/x`;
    try {
      const pinned = createPinnedFetch(other.cert);
      expect(await (await pinned(url, { method: 'GET', headers: {} })).text()).toBe('ok /x');
      // another certificate of the same CA is not the gateway's
      const wrong = createPinnedFetch(a.cert);
      await expect(wrong(url, { method: 'GET', headers: {} })).rejects.toThrow();
      // and plain fetch does not trust the test CA at all: the TLS is real
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
