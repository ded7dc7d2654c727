import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/ConfigError.js';
import { embeddedConfig } from '../config/embeddedConfig.js';
import { validateConfig } from '../config/validateConfig.js';
import { resolveWorkerCount } from './resolveWorkerCount.js';

const networks = [
  { name: 'mainnet', family: 'eth', pathPrefix: '/mainnet', upstreams: [{ name: 'a', http: 'http://10.0.0.5:8545' }] },
];
const postgres = { kind: 'postgres', url: 'postgres://nodegate@10.0.0.4/nodegate' };
const redis = { url: 'redis://10.0.0.3:6379' };

describe('resolveWorkerCount', () => {
  it('the embedded default runs one process, on any number of cores', () => {
    const config = embeddedConfig();
    expect(config.workers).toBe('auto');
    expect(resolveWorkerCount(config, 1)).toBe(1);
    expect(resolveWorkerCount(config, 16)).toBe(1);
  });

  it('auto is one per core with PostgreSQL and Redis; one with either missing', () => {
    expect(resolveWorkerCount(validateConfig({ database: postgres, redis, networks }), 4)).toBe(4);
    expect(resolveWorkerCount(validateConfig({ database: postgres, networks }), 4)).toBe(1);
    expect(resolveWorkerCount(validateConfig({ redis, networks }), 4)).toBe(1);
  });

  it('an explicit count is kept (the embedded database with Redis too)', () => {
    expect(resolveWorkerCount(validateConfig({ workers: 3, database: postgres, redis, networks }), 2)).toBe(3);
    expect(resolveWorkerCount(validateConfig({ workers: 2, redis, networks }), 8)).toBe(2);
    expect(resolveWorkerCount(validateConfig({ workers: 1, database: postgres, redis, networks }), 8)).toBe(1);
  });

  it('more than one worker without Redis is a config error that names the field and says why', () => {
    for (const raw of [
      { workers: 2, networks },
      { workers: '4', database: postgres, networks },
    ]) {
      let err: unknown;
      try {
        validateConfig(raw);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).field).toBe('workers');
      expect((err as ConfigError).message).toMatch(/more than one worker needs redis/);
    }
    for (const bad of [0, -1, 1.5, 257, 'many', '2x', true]) {
      expect(() => validateConfig({ workers: bad, redis, networks }), String(bad)).toThrow(
        /workers: must be auto or a whole number from 1 to 256/,
      );
    }
  });
});
