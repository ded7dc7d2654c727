import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../config/validateConfig.js';
import { type RunningGateway, startGateway } from '../main.js';

/** A gateway in this process over the networks a routing test gives it. */
export interface PolicyGateway {
  readonly gw: RunningGateway;
  /** The JSON-RPC URL of `network` for `key` (the dev key by default). */
  url(network: string, key?: string): string;
  /** The networks as `/health` shows them (`.mainnet.upstreams`, …). */
  health(): Promise<Record<string, any>>;
  /** Closes the gateway and removes its data directory (the upstreams are the caller's). */
  stop(): Promise<void>;
}

/**
 * Starts a gateway over `networks` (config rows: upstreams, partners, policy), with a dev key and
 * without the response cache, so the routing and the upstream policies alone answer (no cached
 * answer, no head tracker traffic in an upstream's counts).
 *
 * @example
 * const t = await startPolicyGateway([{ name: 'mainnet', family: 'eth', pathPrefix: '/mainnet', upstreams }]);
 * await rpc(t.url('mainnet'), 'eth_blockNumber');
 * (await t.health()).mainnet.upstreams;
 * await t.stop();
 */
export async function startPolicyGateway(networks: readonly Record<string, unknown>[]): Promise<PolicyGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'nodegate-policy-'));
  let gw: RunningGateway;
  try {
    gw = await startGateway(
      validateConfig({ listen: '127.0.0.1:0', dataDir: dir, devKey: true, cache: { enabled: false }, networks }),
    );
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    gw,
    url: (network, key = gw.devKey!.key) => `${gw.networks[network]!.http}/v3/${key}`,
    health: async () => ((await (await fetch(`${gw.url}/health`)).json()) as any).networks,
    async stop() {
      await gw.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
