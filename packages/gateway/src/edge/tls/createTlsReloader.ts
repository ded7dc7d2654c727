import type { SecureContextOptions } from 'node:tls';
import type { TlsSettings } from '../../config/types.js';
import type { Logger } from '../../log/createLogger.js';
import { describeCertificate } from './describeCertificate.js';
import { type LoadedTls, loadTlsContext, type TlsCertificateSummary } from './loadTlsContext.js';

/** A listener whose certificate can be replaced in place (`https.Server`, `tls.Server`). */
export interface TlsListener {
  setSecureContext(options: SecureContextOptions): void;
}

/** What a reload did: the new certificate, or why the old one stays. */
export type TlsReloadResult =
  | { readonly ok: true; readonly certificate: TlsCertificateSummary }
  | { readonly ok: false; readonly error: string; readonly certificate: TlsCertificateSummary };

/** The served certificate, and the reload that SIGHUP runs. */
export interface TlsReloader {
  /** The certificate new connections are served now. */
  certificate(): TlsCertificateSummary;
  /**
   * Reads the certificate and key files again and, when they pass the startup checks, serves
   * them to every new connection on every listener (open connections keep theirs and stay open).
   * A bad pair is refused with an error log line, and the previous certificate stays.
   */
  reload(): Promise<TlsReloadResult>;
}

/**
 * Keeps the listeners' certificate and replaces it on demand (`nodegate start` calls `reload` on
 * SIGHUP), with Node's `server.setSecureContext`: no listener is closed, no connection dropped.
 * `onLoaded` runs after a successful reload (the gateway rewrites `<dataDir>/admin.json`, whose
 * certificate the CLI pins). Logs what was loaded (info) or refused (error; the message names
 * the file and the problem, never the key's content).
 *
 * @example
 * const reloader = createTlsReloader(config.tls, loaded, { listeners: () => [app.server], log });
 * process.on('SIGHUP', () => void reloader.reload());
 */
export function createTlsReloader(
  settings: TlsSettings,
  initial: LoadedTls,
  deps: {
    readonly listeners: () => readonly TlsListener[];
    readonly log: Logger;
    readonly onLoaded?: (loaded: LoadedTls) => Promise<void>;
  },
): TlsReloader {
  let current = initial.certificate;
  return {
    certificate: () => current,
    async reload() {
      let next: LoadedTls;
      try {
        next = loadTlsContext(settings);
        for (const listener of deps.listeners()) listener.setSecureContext({ cert: next.cert, key: next.key });
      } catch (err) {
        const error = (err as Error).message;
        deps.log.error('TLS reload refused; the previous certificate is still served', {
          error,
          serving: describeCertificate(current),
        });
        return { ok: false, error, certificate: current };
      }
      current = next.certificate;
      deps.log.info('TLS certificate reloaded', { certificate: describeCertificate(current) });
      if (current.expired) deps.log.warn('the TLS certificate served has expired', { validTo: current.validTo });
      await deps.onLoaded?.(next).catch((err: unknown) =>
        deps.log.error('TLS reloaded, but the admin endpoint file was not updated', {
          error: (err as Error).message,
        }),
      );
      return { ok: true, certificate: current };
    },
  };
}
