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
    expect(c.limits).toEqual({ maxBodyBytes: 5 * 1024 * 1024, maxBatch: 100 });
    expect(c.database).toEqual({ kind: 'embedded' });
    expect(c.networks[0]!.upstreams[0]!.timeoutMs).toBe(10_000);
    expect(c.networks[0]!.maxEventsChunkSize).toBe(1024);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.networks[0]!.upstreams)).toBe(true);
  });

  it('reads chain ids as integers, hex or Starknet names', () => {
    expect(validateConfig({ networks: [net({ chainId: 1 })] }).networks[0]!.chainId).toBe('0x1');
    expect(validateConfig({ networks: [net({ chainId: '0xAA36A7' })] }).networks[0]!.chainId).toBe('0xaa36a7');
    expect(
      validateConfig({ networks: [net({ family: 'starknet', chainId: 'SN_SEPOLIA' })] }).networks[0]!.chainId,
    ).toBe('0x534e5f5345504f4c4941');
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
