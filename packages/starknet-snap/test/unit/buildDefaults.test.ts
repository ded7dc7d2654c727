/**
 * The default build talks to the default gateway (`npm start`): its network settings are read here from the
 * gateway's own embedded config and the dev chain's own class registry (their built packages, run in a child
 * process because they are ES modules), never from a copy.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DEFAULTS } from '../../snap.config';
import { MAINNET_CHAIN_ID, rpcUrlOf, TESTNET_CHAIN_ID } from '../../src/config';

const REPO = join(__dirname, '..', '..', '..', '..');

/** Runs an ES module script on this Node and parses what it prints as JSON. */
function esm<T>(file: string, body: string): T {
  if (!existsSync(file)) throw new Error(`${file} is missing: build it first (npx tsc -b, or the root npm test)`);
  const script = `import * as m from ${JSON.stringify(file)}; process.stdout.write(JSON.stringify(${body}));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as T;
}

interface GatewayDefaults {
  listen: { host: string; port: number };
  tls: boolean;
  networks: Array<{ name: string; family: string; chainId?: string; pathPrefix?: string }>;
}

const gateway = esm<GatewayDefaults>(
  join(REPO, 'packages', 'gateway', 'dist', 'config', 'embeddedConfig.js'),
  `(() => { const c = m.embeddedConfig(); return { listen: c.listen, tls: Boolean(c.tls), networks: c.networks.map((n) => ({ name: n.name, family: n.family, chainId: n.chainId, pathPrefix: n.pathPrefix })) }; })()`,
);

describe('the default build matches the default gateway', () => {
  it("the test network's URL is the default gateway's Starknet network whose chain id is the test network's", () => {
    const url = new URL(BUILD_DEFAULTS.SNAP_SEPOLIA_URL!);
    expect(url.protocol).toBe(gateway.tls ? 'https:' : 'http:');
    expect(url.hostname).toBe(gateway.listen.host);
    expect(Number(url.port)).toBe(gateway.listen.port);
    const served = gateway.networks.find((n) => n.pathPrefix === url.pathname);
    expect(served).toBeDefined();
    expect(served!.family).toBe('starknet');
    expect(BigInt(served!.chainId!)).toBe(BigInt(TESTNET_CHAIN_ID));
    // the gateway serves a network at <prefix>/v3/<KEY>, which is what the snap calls
    expect(rpcUrlOf(BUILD_DEFAULTS.SNAP_SEPOLIA_URL!, 'KEY')).toBe(
      `http://${gateway.listen.host}:${gateway.listen.port}${served!.pathPrefix}/v3/KEY`,
    );
  });

  it('mainnet has no URL: the default gateway serves no Starknet mainnet', () => {
    expect(
      gateway.networks.some(
        (n) => n.family === 'starknet' && n.chainId !== undefined && BigInt(n.chainId) === BigInt(MAINNET_CHAIN_ID),
      ),
    ).toBe(false);
    expect(BUILD_DEFAULTS.SNAP_MAINNET_URL).toBe('');
  });

  it("the account classes are the dev chain's Argent-style ones (0.3.0 for new accounts, 0.4.0 to upgrade to)", () => {
    const classes = esm<[string, string]>(
      join(REPO, 'packages', 'starknet-devchain', 'dist', 'index.js'),
      `['0x' + m.nativeClasses.argentV030.classHash.toString(16), '0x' + m.nativeClasses.argentV040.classHash.toString(16)]`,
    );
    expect(BUILD_DEFAULTS.SNAP_SEPOLIA_ACCOUNT_CLASS_HASH).toBe(classes[0]);
    expect(BUILD_DEFAULTS.SNAP_SEPOLIA_LATEST_ACCOUNT_CLASS_HASH).toBe(classes[1]);
  });

  it('no API key is built in (it is per gateway: npm run snap builds with the development key)', () => {
    expect(BUILD_DEFAULTS.SNAP_SEPOLIA_API_KEY).toBe('');
    expect(BUILD_DEFAULTS.SNAP_MAINNET_API_KEY).toBe('');
  });
});
