import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnUntilFile } from './children.js';

const root = new URL('../..', import.meta.url).pathname;

/**
 * Starts `nodegate start` as its own process (with the V8 flags `npm start` uses) on a config
 * with one network over `upstreamHttp`; resolves with the child and the network's JSON-RPC URL.
 */
export async function startGatewayProcess(dir: string, family: 'eth' | 'starknet', upstreamHttp: string) {
  const configFile = join(dir, 'nodegate.json');
  await writeFile(
    configFile,
    JSON.stringify({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'data'),
      devKey: true,
      networks: [
        { name: 'bench', family, pathPrefix: '/bench', upstreams: [{ name: 'upstream', http: upstreamHttp }] },
      ],
    }),
  );
  const readyFile = join(dir, 'ready.json');
  const gw = await spawnUntilFile(
    process.execPath,
    [
      '--max-semi-space-size=32',
      join(root, 'packages/gateway/dist/cli/main.js'),
      'start',
      '--config',
      configFile,
      '--ready-file',
      readyFile,
    ],
    readyFile,
  );
  return { child: gw.child, url: `${gw.value.networks.bench.http}/v3/${gw.value.devKey.key}` as string };
}
