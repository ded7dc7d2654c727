import { describe, expect, it } from 'vitest';
import { embeddedConfig } from '../../config/embeddedConfig.js';
import { validateConfig } from '../../config/validateConfig.js';
import { DEFAULT_GATEWAY_SETTINGS } from './IpfsGatewaySettings.js';
import { parseGatewaySettings } from './parseGatewaySettings.js';

const ipfs = (gateways?: unknown) => ({
  listen: '127.0.0.1:0',
  networks: [],
  ipfs: {
    pathPrefix: '/ipfs',
    upstream: { name: 'kubo', http: 'http://127.0.0.1:5001' },
    ...(gateways === undefined ? {} : { gateways }),
  },
});

describe('ipfs.gateways and plans.*.gatewayBandwidthPerDay in the config', () => {
  it('defaults: served by path (/ipfs-gateway), no domain, 30 s, 1 credit; the embedded default serves localhost', () => {
    expect(validateConfig(ipfs()).ipfs!.gateways).toEqual(DEFAULT_GATEWAY_SETTINGS);
    expect(embeddedConfig().ipfs!.gateways).toMatchObject({ domain: 'localhost', pathPrefix: '/ipfs-gateway' });
  });

  it('reads every field and lower-cases the domain', () => {
    expect(
      parseGatewaySettings(
        {
          enabled: false,
          pathPrefix: '/gw',
          domain: 'GW.Example.org',
          timeoutMs: 5000,
          requestCredits: 3,
          maxListingEntries: 50,
          fileCacheBytes: 1_000_000,
          fileCacheMaxFileBytes: 0,
          maxConcurrentPerAccount: 8,
          maxQueuedPerAccount: 0,
        },
        'ipfs.gateways',
        '/ipfs',
      ),
    ).toEqual({
      enabled: false,
      pathPrefix: '/gw',
      domain: 'gw.example.org',
      timeoutMs: 5000,
      requestCredits: 3,
      maxListingEntries: 50,
      fileCacheBytes: 1_000_000,
      fileCacheMaxFileBytes: 0,
      maxConcurrentPerAccount: 8,
      maxQueuedPerAccount: 0,
    });
  });

  it.each([
    [{ pathPrefix: '/ipfs' }, 'ipfs.gateways.pathPrefix', "the IPFS API's pathPrefix"],
    [{ pathPrefix: 'gw' }, 'ipfs.gateways.pathPrefix', 'one path segment'],
    [{ pathPrefix: '/admin' }, 'ipfs.gateways.pathPrefix', 'reserved'],
    [{ domain: 'https://gw.example.org' }, 'ipfs.gateways.domain', 'host name'],
    [{ domain: 'gw.example.org:8080' }, 'ipfs.gateways.domain', 'host name'],
    [{ timeoutMs: 10 }, 'ipfs.gateways.timeoutMs', 'integer from 100'],
    [{ enabled: 'yes' }, 'ipfs.gateways.enabled', 'true or false'],
    [{ fileCacheBytes: -1 }, 'ipfs.gateways.fileCacheBytes', 'integer from 0'],
    [{ fileCacheMaxFileBytes: 1.5 }, 'ipfs.gateways.fileCacheMaxFileBytes', 'integer from 0'],
    [{ maxConcurrentPerAccount: 0 }, 'ipfs.gateways.maxConcurrentPerAccount', 'integer from 1'],
    [{ subdomains: true }, 'ipfs.gateways.subdomains', 'unknown field'],
  ])('refuses %j naming %s', (gateways, field, problem) => {
    expect(() => validateConfig(ipfs(gateways))).toThrow(new RegExp(`^${field.replace(/\./g, '\\.')}: .*${problem}`));
  });

  it('plans have a gatewayBandwidthPerDay (defaults per plan; a new plan gets core’s; bad values refused)', () => {
    const c = validateConfig({
      ...ipfs(),
      plans: { team: { gatewayBandwidthPerDay: 5 }, small: { creditsPerSecond: 1, creditsPerDay: 10 } },
    });
    expect(c.plans.team!.gatewayBandwidthPerDay).toBe(5);
    expect(c.plans.small!.gatewayBandwidthPerDay).toBe(10 * 1024 ** 3);
    expect(c.plans.growth!.gatewayBandwidthPerDay).toBe(1024 ** 4);
    expect(() => validateConfig({ ...ipfs(), plans: { core: { gatewayBandwidthPerDay: -1 } } })).toThrow(
      /^plans\.core\.gatewayBandwidthPerDay/,
    );
  });
});
