import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GatewayConfig } from '../config/types.js';
import { describeBlockProduction } from '../embedded/describeBlockProduction.js';
import type { LogOutput } from '../log/createLogOutput.js';
import type { NetworkEndpoints, RunningGateway } from '../main.js';

/** What the startup summary and the ready file say about a started gateway (plain data: a worker sends it to the primary). */
export interface StartSummary {
  readonly url: string;
  readonly networks: Record<string, NetworkEndpoints>;
  readonly ipfs?: string | undefined;
  readonly ipfsGateway?: string | undefined;
  readonly devKey: { readonly key: string; readonly secret: string } | undefined;
  readonly admin: { readonly url: string; readonly token: string };
  readonly dashboard: { readonly url: string; readonly signInUrl: string | undefined };
  /** Whether it serves HTTPS and WSS (SIGHUP reloads the certificate). */
  readonly tls: boolean;
  /** Where `/metrics` is served, when metrics are on. */
  readonly metricsUrl?: string | undefined;
}

/** The summary of a gateway started in this process. */
export function summaryOf(gw: RunningGateway): StartSummary {
  return {
    url: gw.url,
    networks: gw.networks,
    ...(gw.ipfs ? { ipfs: gw.ipfs } : {}),
    ...(gw.ipfsGateway ? { ipfsGateway: gw.ipfsGateway } : {}),
    devKey: gw.devKey,
    admin: gw.admin,
    dashboard: gw.dashboard,
    tls: gw.tls !== undefined,
    ...(gw.metrics ? { metricsUrl: gw.metrics.url } : {}),
  };
}

/**
 * Prints where everything is (text, through `print`; nothing with the `json` format), logs the
 * `nodegate started` event (JSON), and writes the ready file when asked: once per start,
 * whatever the number of worker processes (`workers` is said when more than one).
 *
 * @example
 * await printStartSummary(summaryOf(gw), { config, output, print, workers: 1, pid: process.pid });
 */
export async function printStartSummary(
  s: StartSummary,
  context: {
    config: GatewayConfig;
    output: LogOutput;
    print: (line: string) => void;
    workers: number;
    /** The process SIGHUP goes to. */
    pid: number;
    readyFile?: string | undefined;
  },
): Promise<void> {
  const { config, output, print, workers } = context;
  const processes = workers > 1 ? `  (${workers} worker processes)` : '';
  print(
    `nodegate: listening on ${s.url}${processes}${s.tls ? `  (HTTPS and WSS; \`kill -HUP ${context.pid}\` reloads the certificate)` : ''}`,
  );
  for (const [name, n] of Object.entries(s.networks)) {
    print(`  ${name} (${n.family})`);
    print(`    ${s.tls ? 'HTTPS' : 'HTTP '}      ${n.http}/v3/<API_KEY>`);
    print(`    WebSocket  ${n.ws}/ws/v3/<API_KEY>`);
  }
  const blocks = describeBlockProduction(config);
  if (blocks) print(`  ${blocks}`);
  if (s.ipfs) {
    print('  ipfs');
    print(
      `    ${s.tls ? 'HTTPS API' : 'HTTP API '}  ${s.ipfs}/api/v0/<command>  (basic auth <API_KEY>:<API_KEY_SECRET>)`,
    );
    if (s.ipfsGateway) {
      print(
        `    gateway    ${s.ipfsGateway}/ipfs/<cid>  (the development account's dedicated gateway: what its keys pin)`,
      );
    }
  }
  print(`  health     ${s.url}/health`);
  print(`  admin API  ${s.admin.url}  (token in ${config.dataDir}/admin-token)`);
  print(`  dashboard  ${s.dashboard.url}`);
  if (s.dashboard.signInUrl) print(`  sign in    ${s.dashboard.signInUrl}  (one-time link, 15 minutes)`);
  if (s.devKey) {
    print(`development API key: ${s.devKey.key}`);
    print(`development key secret: ${s.devKey.secret}`);
    const first = Object.values(s.networks)[0];
    if (first)
      print(
        // with TLS, curl trusts the certificate it is given (a self-signed one too)
        `try: curl -s${config.tls ? ` --cacert ${config.tls.certFile}` : ''} -H 'Content-Type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' ${first.http}/v3/${s.devKey.key}`,
      );
  }
  output.event('nodegate started', {
    url: s.url,
    networks: s.networks,
    ...(s.ipfs ? { ipfs: s.ipfs } : {}),
    ...(s.ipfsGateway ? { ipfsGateway: s.ipfsGateway } : {}),
    health: `${s.url}/health`,
    admin: s.admin.url,
    adminTokenFile: join(config.dataDir, 'admin-token'),
    dashboard: s.dashboard.url,
    ...(blocks ? { blocks } : {}),
    workers,
    signIn: 'nodegate admin sign-in-link prints a one-time link',
    ...(s.devKey ? { devKeyFile: join(config.dataDir, 'dev-key.json') } : {}),
  });
  if (context.readyFile) {
    const ready = {
      networks: s.networks,
      devKey: s.devKey ?? null,
      url: s.url,
      admin: s.admin,
      dashboard: s.dashboard,
      ...(s.ipfs ? { ipfs: s.ipfs } : {}),
      // the development account's dedicated gateway (path form): append /ipfs/<cid>
      ...(s.ipfsGateway ? { ipfsGateway: s.ipfsGateway } : {}),
      workers,
      // the process that takes the signals (SIGINT/SIGTERM stop every worker, SIGHUP reloads TLS)
      pid: context.pid,
    };
    const tmp = `${context.readyFile}.tmp`;
    await writeFile(tmp, `${JSON.stringify(ready, null, 2)}\n`, { mode: 0o600 });
    await rename(tmp, context.readyFile);
  }
}
