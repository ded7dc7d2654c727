import { rename, writeFile } from 'node:fs/promises';
import { embeddedConfig } from '../config/embeddedConfig.js';
import { loadConfigFile } from '../config/loadConfigFile.js';
import { parseListen } from '../config/validateConfig.js';
import type { GatewayConfig } from '../config/types.js';
import type { LogLevel } from '../log/createLogger.js';
import { startGateway } from '../main.js';

/** Options of `nodegate start`. */
export interface StartFlags {
  config?: string | undefined;
  listen?: string | undefined;
  dataDir?: string | undefined;
  readyFile?: string | undefined;
  logLevel?: LogLevel | undefined;
}

/**
 * `nodegate start`: loads the config (or the embedded default), starts the gateway, prints
 * where everything is, writes the ready file, and stops cleanly on SIGINT/SIGTERM.
 */
export async function runStart(flags: StartFlags, out: (line: string) => void): Promise<void> {
  let config: GatewayConfig;
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
  out(flags.config ? `nodegate: starting with ${flags.config}` : 'nodegate: starting on the embedded defaults');
  const gw = await startGateway(config, {
    progress: (line) => out(`  ${line}`),
    ...(flags.logLevel ? { logLevel: flags.logLevel } : {}),
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    out(`nodegate: ${signal} received, stopping…`);
    gw.close().then(
      () => {
        out('nodegate: stopped');
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  out(`nodegate: listening on ${gw.url}`);
  for (const [name, n] of Object.entries(gw.networks)) {
    out(`  ${name} (${n.family})`);
    out(`    HTTP       ${n.http}/v3/<API_KEY>`);
    out(`    WebSocket  ${n.ws}/ws/v3/<API_KEY>`);
  }
  if (gw.ipfs) {
    out('  ipfs');
    out(`    HTTP API   ${gw.ipfs}/api/v0/<command>  (basic auth <API_KEY>:<API_KEY_SECRET>)`);
  }
  out(`  health     ${gw.url}/health`);
  out(`  admin API  ${gw.admin.url}  (token in ${config.dataDir}/admin-token)`);
  out(`  dashboard  ${gw.dashboard.url}`);
  if (gw.dashboard.signInUrl) out(`  sign in    ${gw.dashboard.signInUrl}  (one-time link, 15 minutes)`);
  if (gw.devKey) {
    out(`development API key: ${gw.devKey.key}`);
    out(`development key secret: ${gw.devKey.secret}`);
    const first = Object.values(gw.networks)[0];
    if (first)
      out(
        `try: curl -s -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' ${first.http}/v3/${gw.devKey.key}`,
      );
  }
  if (flags.readyFile) {
    const ready = {
      networks: gw.networks,
      devKey: gw.devKey ?? null,
      url: gw.url,
      admin: gw.admin,
      dashboard: gw.dashboard,
      ...(gw.ipfs ? { ipfs: gw.ipfs } : {}),
    };
    const tmp = `${flags.readyFile}.tmp`;
    await writeFile(tmp, `${JSON.stringify(ready, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, flags.readyFile);
  }
}
