import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnUntilFile } from './children.js';

const root = new URL('../..', import.meta.url).pathname;

/** What `nodegate start --ready-file` writes. */
export interface GatewayReady {
  url: string;
  networks: Record<string, { family: string; http: string; ws: string }>;
  ipfs?: string;
  devKey: { key: string; secret: string };
  admin: { url: string; token: string };
}

/**
 * Starts `nodegate start` as its own process, with the V8 flags `npm start` uses (the young
 * generation's semi-space: `NODEGATE_BENCH_SEMI_SPACE` MB instead, to compare), on a config
 * made of `config` plus a free loopback port, a data directory in `dir` and a dev key.
 */
export async function startGatewayProcess(dir: string, config: Record<string, unknown>) {
  const configFile = join(dir, 'nodegate.json');
  await writeFile(
    configFile,
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'gateway-data'),
      devKey: true,
      networks: [],
      ...config,
    }),
  );
  const readyFile = join(dir, 'gateway-ready.json');
  const gw = await spawnUntilFile(
    process.execPath,
    [
      `--max-semi-space-size=${process.env.NODEGATE_BENCH_SEMI_SPACE ?? '8'}`,
      join(root, 'packages/gateway/dist/cli/main.js'),
      'start',
      '--config',
      configFile,
      '--ready-file',
      readyFile,
    ],
    readyFile,
  );
  return { child: gw.child, ready: gw.value as GatewayReady };
}

/**
 * A gateway with one network named `bench` over `upstreamHttp` (`network` merged into its
 * settings); resolves with its JSON-RPC URL
 * and what it wrote in its ready file (its URL and admin token, for `/metrics`) too. `extra` is merged into the config (e.g. `{ cache: { enabled: false } }`).
 */
export async function startBenchNetwork(
  dir: string,
  family: 'eth' | 'starknet',
  upstreamHttp: string,
  extra: Record<string, unknown> = {},
  /** Merged into the network's settings (e.g. `{ policy: { multiplex: false } }`). */
  network: Record<string, unknown> = {},
) {
  const { child, ready } = await startGatewayProcess(dir, {
    networks: [
      {
        name: 'bench',
        family,
        pathPrefix: '/bench',
        upstreams: [{ name: 'upstream', http: upstreamHttp }],
        ...network,
      },
    ],
    ...extra,
  });
  return { child, ready, url: `${ready.networks.bench!.http}/v3/${ready.devKey.key}` };
}
