import { describe, expect, it } from 'vitest';
import { ConfigError } from './ConfigError.js';
import { embeddedConfig } from './embeddedConfig.js';
import { validateConfig } from './validateConfig.js';

const net = (over: Record<string, unknown> = {}) => ({
  name: 'mainnet',
  family: 'eth',
  pathPrefix: '/mainnet',
  upstreams: [{ name: 'a', http: 'http://10.0.0.5:8545' }],
  ...over,
});

function fieldOf(raw: unknown): string {
  try {
    validateConfig(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).field;
  }
  throw new Error('config was accepted');
}

describe('validateConfig', () => {
  it('fills defaults and freezes the result', () => {
    const c = validateConfig({ networks: [net()] });
    expect(c.listen).toEqual({ host: '127.0.0.1', port: 8550 });
    expect(c.limits).toEqual({
      maxBodyBytes: 5 * 1024 * 1024,
      maxBatch: 100,
      maxConcurrentPerKey: 32,
      maxQueuedPerKey: 1_000,
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 10_000,
      bodyTimeoutMs: 10_000,
      keepAliveTimeoutMs: 65_000,
      invalidCallCredits: 5,
      maxFiltersPerKey: 100,
      filterTimeoutMs: 300_000,
      ws: { maxConnectionsPerKey: 100, maxInFlightPerConnection: 256, maxSendBufferBytes: 4 * 1024 * 1024 },
    });
    expect(c.plans.core).toEqual({
      name: 'core',
      creditsPerSecond: 500,
      creditsPerDay: 3_000_000,
      failoverProtection: false,
      maxKeys: 25,
      ipfsServedBytesPerDay: 2 * 1024 ** 3,
      ipfsServedBytesPerRequest: 1024 ** 3,
      ipfsServedBytesPerSecond: 32 * 1024 ** 2,
      gatewayBandwidthPerDay: 10 * 1024 ** 3,
    });
    expect(c.plans.developer?.creditsPerDay).toBe(15_000_000);
    expect(c.plans.team?.creditsPerSecond).toBe(40_000);
    expect(c.redis).toBeUndefined();
    expect(c.database).toEqual({ kind: 'embedded', queryTimeoutMs: 5_000 });
    expect(c.networks[0]!.upstreams[0]!.timeoutMs).toBe(10_000);
    expect(c.networks[0]!.maxEventsChunkSize).toBe(1024);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.networks[0]!.upstreams)).toBe(true);
  });

  it('reads plans (overrides and new ones), redis, tenant limits; names their bad fields', () => {
    const c = validateConfig({
      networks: [net()],
      plans: { core: { creditsPerSecond: 50 }, enterprise: { creditsPerSecond: 9, creditsPerDay: 99 } },
      redis: 'redis://10.0.0.3:6379',
      limits: { maxConcurrentPerKey: 4, ws: { maxInFlightPerConnection: 8 } },
    });
    expect(c.plans.core).toMatchObject({ creditsPerSecond: 50, creditsPerDay: 3_000_000 });
    expect(c.plans.enterprise).toEqual({
      name: 'enterprise',
      creditsPerSecond: 9,
      creditsPerDay: 99,
      failoverProtection: false,
      maxKeys: 25,
      // a new plan without IPFS served-bytes fields gets core's
      ipfsServedBytesPerDay: 2 * 1024 ** 3,
      ipfsServedBytesPerRequest: 1024 ** 3,
      ipfsServedBytesPerSecond: 32 * 1024 ** 2,
      gatewayBandwidthPerDay: 10 * 1024 ** 3,
    });
    expect(c.redis).toEqual({
      url: 'redis://10.0.0.3:6379',
      prefix: 'nodegate:',
      commandTimeoutMs: 1_000,
      connectTimeoutMs: 2_000,
    });
    expect(c.limits.maxConcurrentPerKey).toBe(4);
    expect(c.limits.ws.maxInFlightPerConnection).toBe(8);
    expect(fieldOf({ networks: [net()], plans: { gold: { creditsPerSecond: 1 } } })).toBe('plans.gold.creditsPerDay');
    expect(fieldOf({ networks: [net()], plans: { core: { creditsPerSecond: -1 } } })).toBe(
      'plans.core.creditsPerSecond',
    );
    expect(fieldOf({ networks: [net()], redis: { url: 'http://x' } })).toBe('redis.url');
    expect(fieldOf({ networks: [net()], redis: { url: 'redis://x', commandTimeoutMs: 0 } })).toBe(
      'redis.commandTimeoutMs',
    );
    expect(fieldOf({ networks: [net()], database: { kind: 'embedded', connectTimeoutMs: 100 } })).toBe(
      'database.connectTimeoutMs',
    );
    expect(
      fieldOf({ networks: [net()], database: { kind: 'postgres', url: 'postgres://x/y', queryTimeoutMs: 'x' } }),
    ).toBe('database.queryTimeoutMs');
    expect(
      validateConfig({
        networks: [net()],
        database: { kind: 'postgres', url: 'postgres://x/y', queryTimeoutMs: 800, connectTimeoutMs: 400 },
      }).database,
    ).toEqual({
      kind: 'postgres',
      url: 'postgres://x/y',
      schema: undefined,
      queryTimeoutMs: 800,
      connectTimeoutMs: 400,
    });
    expect(fieldOf({ networks: [net()], limits: { ws: { maxSendBufferBytes: 1 } } })).toBe(
      'limits.ws.maxSendBufferBytes',
    );
    expect(fieldOf({ networks: [net()], database: { kind: 'postgres', url: 'postgres://x/y', schema: 'A-B' } })).toBe(
      'database.schema',
    );
  });

  it('reads chain ids as integers, hex or Starknet names', () => {
    expect(validateConfig({ networks: [net({ chainId: 1 })] }).networks[0]!.chainId).toBe('0x1');
    expect(validateConfig({ networks: [net({ chainId: '0xAA36A7' })] }).networks[0]!.chainId).toBe('0xaa36a7');
    expect(
      validateConfig({ networks: [net({ family: 'starknet', chainId: 'SN_SEPOLIA' })] }).networks[0]!.chainId,
    ).toBe('0x534e5f5345504f4c4941');
  });

  it('reads the upstream policy with its defaults and names a bad field', () => {
    expect(validateConfig({ networks: [net()] }).networks[0]!.policy).toEqual({
      probeIntervalMs: 2_000,
      retries: 2,
      hedge: true,
      breakerFailures: 5,
      breakerOpenMs: 1_000,
      methodTimeoutsMs: {},
      exploreShare: 0.02,
      capabilityTtlMs: 600_000,
      partnerProbeIntervalMs: 300_000,
      multiplex: true,
      diagnosticHeaders: true,
      splitConcurrency: 8,
    });
    const policy = validateConfig({
      networks: [net({ policy: { exploreShare: 0, capabilityTtlMs: 5_000, partnerProbeIntervalMs: 60_000 } })],
    }).networks[0]!.policy;
    expect(policy).toMatchObject({ exploreShare: 0, capabilityTtlMs: 5_000, partnerProbeIntervalMs: 60_000 });
    expect(fieldOf({ networks: [net({ policy: { exploreShare: 0.9 } })] })).toBe('networks[0].policy.exploreShare');
    expect(fieldOf({ networks: [net({ policy: { exploreShare: '5%' } })] })).toBe('networks[0].policy.exploreShare');
    expect(fieldOf({ networks: [net({ policy: { capabilityTtlMs: 10 } })] })).toBe(
      'networks[0].policy.capabilityTtlMs',
    );
    expect(fieldOf({ networks: [net({ policy: { partnerProbeMs: 10 } })] })).toBe('networks[0].policy.partnerProbeMs');
  });

  it('names the bad field', () => {
    expect(fieldOf({ networks: [net({ upstreams: [{ name: 'a', http: 'ftp://x' }] })] })).toBe(
      'networks[0].upstreams[0].http',
    );
    expect(fieldOf({ networks: [net({ upstreams: [{ name: 'a', http: 'http://x', ws: 'http://x' }] })] })).toBe(
      'networks[0].upstreams[0].ws',
    );
    expect(fieldOf({ networks: [net({ family: 'btc' })] })).toBe('networks[0].family');
    expect(fieldOf({ networks: [net({ pathPrefix: 'mainnet' })] })).toBe('networks[0].pathPrefix');
    expect(fieldOf({ networks: [net({ pathPrefix: undefined })] })).toBe('networks[0]');
    expect(fieldOf({ networks: [net(), net()] })).toBe('networks[1].name');
    expect(fieldOf({ networks: [net({ upstreams: [] })] })).toBe('networks[0].upstreams');
    expect(fieldOf({ networks: [net()], listen: 'localhost' })).toBe('listen');
    expect(fieldOf({ networks: [net()], limits: { maxBatch: 0 } })).toBe('limits.maxBatch');
    expect(fieldOf({ networks: [net()], limits: { invalidCallCredits: -1 } })).toBe('limits.invalidCallCredits');
    expect(validateConfig({ networks: [net()], limits: { invalidCallCredits: 0 } }).limits.invalidCallCredits).toBe(0);
    expect(fieldOf({ networks: [net()], limits: { maxFiltersPerKey: 0 } })).toBe('limits.maxFiltersPerKey');
    expect(fieldOf({ networks: [net()], limits: { filterTimeoutMs: 10 } })).toBe('limits.filterTimeoutMs');
    const filterLimits = validateConfig({ networks: [net()], limits: { maxFiltersPerKey: 3, filterTimeoutMs: 2_000 } });
    expect([filterLimits.limits.maxFiltersPerKey, filterLimits.limits.filterTimeoutMs]).toEqual([3, 2_000]);
    expect(fieldOf({ networks: [net()], database: { kind: 'postgres', url: 'mysql://x' } })).toBe('database.url');
    expect(fieldOf({ networks: [net()], colour: 'blue' })).toBe('colour');
    expect(fieldOf({ networks: [net({ upstreams: [{ name: 'a', embedded: 'geth' }] })] })).toBe(
      'networks[0].upstreams[0].embedded',
    );
    expect(fieldOf({})).toBe('networks');
  });

  it('the embedded default has eth-devnet and starknet-devnet on embedded backends, with a dev key', () => {
    const c = embeddedConfig({ listen: '127.0.0.1:0', dataDir: '/tmp/x' });
    expect(c.devKey).toBe(true);
    expect(c.networks.map((n) => [n.name, n.family, n.dev, n.upstreams[0]!.embedded])).toEqual([
      ['eth-devnet', 'eth', true, 'anvil'],
      ['starknet-devnet', 'starknet', true, 'starknet-devchain'],
    ]);
  });
});
