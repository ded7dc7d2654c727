import { describe, expect, it } from 'vitest';
import { ConfigError } from './ConfigError.js';
import { validateConfig } from './validateConfig.js';

const net = (upstream: Record<string, unknown>, partner?: Record<string, unknown>) => ({
  networks: [
    {
      name: 'mainnet',
      family: 'eth',
      pathPrefix: '/mainnet',
      upstreams: [{ name: 'a', http: 'http://10.0.0.5:8545', ...upstream }],
      ...(partner ? { partners: [{ name: 'p', http: 'https://p.example', ...partner }] } : {}),
    },
  ],
});
const fieldOf = (raw: unknown) => {
  try {
    validateConfig(raw);
  } catch (err) {
    if (err instanceof ConfigError) return err.field;
    throw err;
  }
  return undefined;
};

describe('upstream rateLimit', () => {
  it('reads requests or credits a second, autoTune on by default; absent, the upstream has none', () => {
    const n = validateConfig(
      net({ rateLimit: { requestsPerSecond: 25 } }, { rateLimit: { creditsPerSecond: 500, autoTune: false } }),
    ).networks[0]!;
    expect(n.upstreams[0]!.rateLimit).toEqual({ unit: 'requests', perSecond: 25, autoTune: true });
    expect(n.partners[0]!.rateLimit).toEqual({ unit: 'credits', perSecond: 500, autoTune: false });
    expect(validateConfig(net({})).networks[0]!.upstreams[0]).not.toHaveProperty('rateLimit');
  });

  it('names the bad field', () => {
    expect(fieldOf(net({ rateLimit: {} }))).toBe('networks[0].upstreams[0].rateLimit');
    expect(fieldOf(net({ rateLimit: { requestsPerSecond: 5, creditsPerSecond: 5 } }))).toBe(
      'networks[0].upstreams[0].rateLimit',
    );
    expect(fieldOf(net({ rateLimit: { requestsPerSecond: 0 } }))).toBe(
      'networks[0].upstreams[0].rateLimit.requestsPerSecond',
    );
    expect(fieldOf(net({ rateLimit: { creditsPerSecond: '5' } }))).toBe(
      'networks[0].upstreams[0].rateLimit.creditsPerSecond',
    );
    expect(fieldOf(net({ rateLimit: { requestsPerSecond: 5, autoTune: 'yes' } }))).toBe(
      'networks[0].upstreams[0].rateLimit.autoTune',
    );
    expect(fieldOf(net({ rateLimit: { requestsPerMinute: 5 } }))).toBe(
      'networks[0].upstreams[0].rateLimit.requestsPerMinute',
    );
  });
});
