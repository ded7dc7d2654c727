import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/ConfigError.js';
import { validateConfig } from '../config/validateConfig.js';
import { DEFAULT_IPFS_ALLOW, ipfsCommands } from './ipfsCommands.js';
import { resolveIpfsCommand } from './resolveIpfsCommand.js';

const base = { networks: [], ipfs: { pathPrefix: '/ipfs', upstream: { name: 'kubo', http: 'http://10.0.0.5:5001' } } };

function fieldOf(ipfs: Record<string, unknown>): string | undefined {
  try {
    validateConfig({ ...base, ipfs: { ...base.ipfs, ...ipfs } });
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).field;
  }
}

describe('ipfs config', () => {
  it('defaults: the hosted allowlist, 1 GiB requests, 10 GiB stored per key, a long upstream idle timeout', () => {
    const config = validateConfig(base);
    expect(config.ipfs?.allow).toEqual(DEFAULT_IPFS_ALLOW);
    expect([...DEFAULT_IPFS_ALLOW].sort()).toEqual(
      [
        'add',
        'cat',
        'get',
        'ls',
        'block/get',
        'block/put',
        'block/stat',
        'dag/get',
        'dag/put',
        'dag/resolve',
        'dag/import',
        'dag/export',
        'pin/add',
        'pin/ls',
        'pin/rm',
        'pin/update',
        'version',
        'object/get',
        'object/put',
        'object/stat',
        'object/data',
        'object/links',
      ].sort(),
    );
    expect(config.ipfs?.maxRequestBytes).toBe(1024 ** 3);
    expect(config.ipfs?.maxStoredBytesPerKey).toBe(10 * 1024 ** 3);
    expect(config.ipfs?.upstream.timeoutMs).toBe(300_000);
  });

  it('the IPFS prefix and hosts cannot be a network’s', () => {
    const network = {
      name: 'm',
      family: 'eth',
      pathPrefix: '/ipfs',
      hosts: ['a.example'],
      upstreams: [{ name: 'a', http: 'http://10.0.0.5:8545' }],
    };
    const attempt = (ipfs: Record<string, unknown>) => {
      try {
        validateConfig({ networks: [network], ipfs: { upstream: base.ipfs.upstream, ...ipfs } });
        return undefined;
      } catch (err) {
        return (err as ConfigError).field;
      }
    };
    expect(attempt({ pathPrefix: '/ipfs' })).toBe('ipfs.pathPrefix');
    expect(attempt({ hosts: ['b.example', 'a.example'] })).toBe('ipfs.hosts[1]');
    expect(attempt({ pathPrefix: '/files' })).toBeUndefined();
  });

  it('config errors name the field', () => {
    expect(fieldOf({ allow: ['cat', 'rm -rf'] })).toBe('ipfs.allow[1]');
    expect(fieldOf({ allow: 'cat' })).toBe('ipfs.allow');
    expect(fieldOf({ maxRequestBytes: -1 })).toBe('ipfs.maxRequestBytes');
    expect(fieldOf({ maxStoredBytesPerKey: 1.5 })).toBe('ipfs.maxStoredBytesPerKey');
    expect(fieldOf({ allowed: [] })).toBe('ipfs.allowed');
    expect(fieldOf({ allow: ['cat', 'repo/gc'], maxRequestBytes: 4096, maxStoredBytesPerKey: 0 })).toBeUndefined();
  });
});

describe('command resolution', () => {
  it('longest known name first; trailing segments are the argument', () => {
    expect(resolveIpfsCommand('object/get')?.name).toBe('object/get');
    expect(resolveIpfsCommand('cat/QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN')).toMatchObject({
      name: 'cat',
      pathArg: 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN',
    });
    expect(resolveIpfsCommand('bootstrap/add/default')?.name).toBe('bootstrap/add/default');
    expect(resolveIpfsCommand('no/such')).toBeUndefined();
    expect(resolveIpfsCommand('')).toBeUndefined();
  });

  it('the storing commands are the upload ones', () => {
    const storing = Object.entries(ipfsCommands)
      .filter(([, spec]) => spec.storesBytes)
      .map(([name]) => name);
    expect(storing.sort()).toEqual(['add', 'block/put', 'dag/import', 'dag/put', 'object/put']);
  });
});
