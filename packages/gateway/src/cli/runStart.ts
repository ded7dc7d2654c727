import { startClusterPrimary } from '../cluster/startClusterPrimary.js';
import { resolveWorkerCount } from '../cluster/resolveWorkerCount.js';
import { ConfigError } from '../config/ConfigError.js';
import { embeddedConfig } from '../config/embeddedConfig.js';
import { loadConfigFile } from '../config/loadConfigFile.js';
import { parseTls } from '../config/parseTls.js';
import { parseListen } from '../config/validateConfig.js';
import { parseBlockTime } from '../config/parseEmbedded.js';
import { parseWorkers } from '../config/parseWorkers.js';
import { withBlockTime } from '../config/withBlockTime.js';
import type { GatewayConfig } from '../config/types.js';
import { describeCertificate } from '../edge/tls/describeCertificate.js';
import type { LogFormat, LogLevel } from '../log/createLogger.js';
import { createLogOutput, type LogOutput } from '../log/createLogOutput.js';
import { startGateway } from '../main.js';
import { printStartSummary, type StartSummary, summaryOf } from './printStartSummary.js';

/** Options of `nodegate start`. */
export interface StartFlags {
  config?: string | undefined;
  listen?: string | undefined;
  dataDir?: string | undefined;
  readyFile?: string | undefined;
  logLevel?: LogLevel | undefined;
  /** `--log-format text|json`: over the config's `log.format`. */
  logFormat?: LogFormat | undefined;
  /** `--tls-cert` / `--tls-key`: HTTPS and WSS with these PEM files (given together; they replace `tls`). */
  tlsCert?: string | undefined;
  tlsKey?: string | undefined;
  /** `--block-time SECONDS`: both embedded dev chains mine a block that often (over the config's `embedded`). */
  blockTime?: string | undefined;
  /** `--workers N|auto`: gateway processes on this machine (over the config's `workers`). */
  workers?: string | undefined;
}

/** A started gateway, in this process or as a primary with its workers. */
interface Started {
  readonly summary: StartSummary;
  readonly workers: number;
  /** SIGHUP with TLS: reads the certificate again; resolves with the line to print. */
  readonly reloadTls: (() => Promise<string>) | undefined;
  close(): Promise<void>;
}

/**
 * `nodegate start`: loads the config (or the embedded default), starts the gateway, prints
 * where everything is, writes the ready file, and stops cleanly on SIGINT/SIGTERM. With the
 * `json` log format stdout holds JSON lines only: the summary is one `nodegate started` event
 * (without the development key's secret or a sign-in link: `nodegate admin sign-in-link` makes one). With TLS,
 * SIGHUP reads the certificate and key again (open connections stay; a bad pair keeps the old).
 * With more than one worker (`--workers`, `workers:`; see `src/cluster/`) this process is the
 * primary: it starts the embedded backends and the workers, relays SIGHUP to them, and stops them
 * all on SIGINT/SIGTERM.
 */
export async function runStart(flags: StartFlags, out: (line: string) => void): Promise<void> {
  let config: GatewayConfig;
  const tls = tlsFromFlags(flags);
  if (flags.config) {
    const loaded = await loadConfigFile(flags.config);
    config = Object.freeze({
      ...loaded,
      ...(flags.listen ? { listen: parseListen(flags.listen, '--listen') } : {}),
      ...(flags.dataDir ? { dataDir: flags.dataDir } : {}),
    });
  } else {
    config = embeddedConfig({
      ...(flags.listen ? { listen: flags.listen } : {}),
      ...(flags.dataDir ? { dataDir: flags.dataDir } : {}),
    });
  }
  if (flags.blockTime !== undefined)
    config = withBlockTime(config, parseBlockTime(flags.blockTime, '--block-time', true));
  if (tls) config = Object.freeze({ ...config, tls });
  if (flags.workers !== undefined) {
    config = Object.freeze({
      ...config,
      workers: parseWorkers(flags.workers, '--workers', config.redis !== undefined),
    });
  }
  const workers = resolveWorkerCount(config);
  const output = createLogOutput(config.log, { level: flags.logLevel, format: flags.logFormat });
  const json = output.format === 'json';
  // the summary for a person (text); with JSON logs, stdout carries JSON lines only
  const print = json ? () => {} : out;
  print(flags.config ? `nodegate: starting with ${flags.config}` : 'nodegate: starting on the embedded defaults');
  const progress = json ? (line: string) => output.logger.info(line) : (line: string) => out(`  ${line}`);
  let started: Started;
  try {
    started =
      workers > 1
        ? await startClusterPrimary(config, { workers, output, progress, logLevel: flags.logLevel })
        : await startInProcess(config, { output, progress, logLevel: flags.logLevel });
  } catch (err) {
    await output.close();
    throw err;
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    print(`nodegate: ${signal} received, stopping…`);
    output.event('stopping', { signal });
    started.close().then(
      async () => {
        print('nodegate: stopped');
        output.event('stopped');
        await output.close();
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const reload = started.reloadTls;
  if (reload) {
    // the certificate is read again for new connections (by every worker); open ones keep theirs
    process.on('SIGHUP', () => {
      if (stopping) return;
      void reload().then((line) => (json ? (l: string) => output.event(l) : out)(line));
    });
  }

  await printStartSummary(started.summary, {
    config,
    output,
    print,
    workers: started.workers,
    pid: process.pid,
    readyFile: flags.readyFile,
  });
}

/** The gateway in this process (one worker: no primary). */
async function startInProcess(
  config: GatewayConfig,
  options: { output: LogOutput; progress: (line: string) => void; logLevel: LogLevel | undefined },
): Promise<Started> {
  const gw = await startGateway(config, {
    progress: options.progress,
    output: options.output,
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
  });
  const reloader = gw.tls;
  return {
    summary: summaryOf(gw),
    workers: 1,
    reloadTls: reloader
      ? async () => {
          const r = await reloader.reload();
          return r.ok
            ? `nodegate: SIGHUP: TLS certificate reloaded: ${describeCertificate(r.certificate)}`
            : `nodegate: SIGHUP: TLS reload refused (${r.error}); still serving ${describeCertificate(r.certificate)}`;
        }
      : undefined,
    close: () => gw.close(),
  };
}

/** `--tls-cert` and `--tls-key`, checked like the config's `tls` (errors name the flags). */
function tlsFromFlags(flags: StartFlags) {
  if (flags.tlsCert === undefined && flags.tlsKey === undefined) return undefined;
  if (flags.tlsCert === undefined) throw new ConfigError('--tls-cert', 'give the certificate with the key (--tls-key)');
  if (flags.tlsKey === undefined) throw new ConfigError('--tls-key', 'give the key with the certificate (--tls-cert)');
  const tls = parseTls({ certFile: flags.tlsCert, keyFile: flags.tlsKey }, 'tls', {
    certFile: '--tls-cert',
    keyFile: '--tls-key',
  });
  return tls && Object.freeze(tls);
}
