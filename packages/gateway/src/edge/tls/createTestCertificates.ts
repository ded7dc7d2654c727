import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A server certificate the test CA signed, as files and PEM. */
export interface TestServerCertificate {
  readonly certFile: string;
  readonly keyFile: string;
  readonly cert: string;
  /** The serial number as OpenSSL prints it (upper-case hex, e.g. `1001`). */
  readonly serialNumber: string;
}

/** A certificate authority made for one test run, in a temporary directory. */
export interface TestCertificates {
  readonly dir: string;
  /** The CA's certificate (PEM): what the test's clients trust. */
  readonly ca: string;
  readonly caFile: string;
  /**
   * A server certificate signed by the CA, with `serial` (hex), for `localhost` and `127.0.0.1`
   * unless `subjectAltName` says otherwise (e.g. `DNS:gateway.example`); `name` picks the files'
   * names (`<name>.pem`, `<name>.key`).
   */
  issue(
    name: string,
    serial: string,
    options?: { days?: number; subjectAltName?: string },
  ): Promise<TestServerCertificate>;
  /** Removes the directory. */
  remove(): Promise<void>;
}

/**
 * Makes a test CA with the `openssl` CLI (P-256 keys, in a new temporary directory) from which a
 * test issues server certificates: real certificates that real clients verify once they trust
 * `ca` (undici `Agent({ connect: { ca } })`, `ws`'s `ca`, `NODE_EXTRA_CA_CERTS`).
 *
 * @example
 * const pki = await createTestCertificates();
 * const a = await pki.issue('a', '1001');
 * // config: tls: { certFile: a.certFile, keyFile: a.keyFile }; client: new Agent({ connect: { ca: pki.ca } })
 */
export async function createTestCertificates(): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-tls-'));
  const caFile = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca.key');
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    caKey,
    '-out',
    caFile,
    '-days',
    '2',
    '-subj',
    '/CN=nodegate test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  const ca = await readFile(caFile, 'utf8');
  return {
    dir,
    ca,
    caFile,
    async issue(name, serial, options = {}) {
      const keyFile = join(dir, `${name}.key`);
      const csr = join(dir, `${name}.csr`);
      const certFile = join(dir, `${name}.pem`);
      const extFile = join(dir, `${name}.ext`);
      await writeFile(
        extFile,
        [
          `subjectAltName=${options.subjectAltName ?? 'DNS:localhost,IP:127.0.0.1'}`,
          'basicConstraints=critical,CA:FALSE',
          'keyUsage=critical,digitalSignature',
          'extendedKeyUsage=serverAuth',
          '',
        ].join('\n'),
      );
      openssl(['req', ...ecKey, '-keyout', keyFile, '-out', csr, '-subj', '/CN=localhost']);
      openssl([
        'x509',
        '-req',
        '-in',
        csr,
        '-CA',
        caFile,
        '-CAkey',
        caKey,
        '-set_serial',
        `0x${serial}`,
        '-days',
        String(options.days ?? 2),
        '-extfile',
        extFile,
        '-out',
        certFile,
      ]);
      return { certFile, keyFile, cert: await readFile(certFile, 'utf8'), serialNumber: serial.toUpperCase() };
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
