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
        'block/get',
        'block/put',
        'block/stat',
        'cat',
        'dag/export',
        'dag/get',
        'dag/import',
        'dag/put',
        'dag/resolve',
        'dns',
        'files/chcid',
        'files/chmod',
        'files/cp',
        'files/flush',
        'files/ls',
        'files/mkdir',
        'files/mv',
        'files/read',
        'files/rm',
        'files/stat',
        'files/touch',
        'files/write',
        'get',
        'ls',
        'object/data',
        'object/get',
        'object/links',
        'object/new',
        'object/patch/add-link',
        'object/patch/append-data',
        'object/patch/rm-link',
        'object/patch/set-data',
        'object/put',
        'object/stat',
        'pin/add',
        'pin/ls',
        'pin/rm',
        'pin/update',
        'refs',
        'refs/local',
        'repo/stat',
        'repo/version',
        'resolve',
        'version',
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
    expect(fieldOf({ gc: { intervalMs: -1 } })).toBe('ipfs.gc.intervalMs');
    expect(fieldOf({ gc: { timeoutMs: 10 } })).toBe('ipfs.gc.timeoutMs');
    expect(fieldOf({ gc: { unpinUnowned: 'yes' } })).toBe('ipfs.gc.unpinUnowned');
    expect(fieldOf({ gc: { every: 1 } })).toBe('ipfs.gc.every');
    expect(fieldOf({ creditsPerServedMiB: 0.5 })).toBe('ipfs.creditsPerServedMiB');
  });

  it('the collection is hourly; the node’s unowned pins are removed only for the embedded node', () => {
    const external = validateConfig(base);
    expect(external.ipfs?.gc).toEqual({ intervalMs: 3_600_000, timeoutMs: 600_000, unpinUnowned: false });
    expect(external.ipfs?.creditsPerServedMiB).toBe(10);
    const embedded = validateConfig({
      ...base,
      ipfs: { pathPrefix: '/ipfs', upstream: { name: 'ipfs-node', embedded: 'ipfs-node' }, gc: { intervalMs: 0 } },
    });
    expect(embedded.ipfs?.gc).toEqual({ intervalMs: 0, timeoutMs: 600_000, unpinUnowned: true });
  });

  it('plans carry the IPFS served-bytes bounds; an operator sets them per plan', () => {
    const c = validateConfig({
      ...base,
      plans: { core: { ipfsServedBytesPerDay: 5_000 }, big: { creditsPerSecond: 1, creditsPerDay: 1 } },
    });
    expect(c.plans.core).toMatchObject({ ipfsServedBytesPerDay: 5_000, ipfsServedBytesPerRequest: 1024 ** 3 });
    expect(c.plans.big?.ipfsServedBytesPerSecond).toBe(32 * 1024 ** 2);
    expect(c.plans.dev?.ipfsServedBytesPerSecond).toBe(4 * 1024 ** 3);
    const bad = () => validateConfig({ ...base, plans: { core: { ipfsServedBytesPerSecond: 10 } } });
    expect(bad).toThrow(/plans\.core\.ipfsServedBytesPerSecond/);
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
    expect(storing.sort()).toEqual([
      'add',
      'block/put',
      'dag/import',
      'dag/put',
      'files/write',
      'object/new',
      'object/patch/add-link',
      'object/patch/append-data',
      'object/patch/rm-link',
      'object/patch/set-data',
      'object/put',
    ]);
  });
});
