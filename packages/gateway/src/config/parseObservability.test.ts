import { describe, expect, it } from 'vitest';
import { embeddedConfig } from './embeddedConfig.js';
import { validateConfig } from './validateConfig.js';

const base = {
  networks: [{ name: 'a', family: 'eth', pathPrefix: '/a', upstreams: [{ name: 'u', http: 'http://127.0.0.1:8545' }] }],
};

describe('log and metrics config', () => {
  it('defaults: warn in text, no access log (a 10 MiB file, 2 kept, when on), metrics on the main listener behind the admin token', () => {
    const c = validateConfig(base);
    expect(c.log).toEqual({
      level: 'warn',
      format: 'text',
      access: false,
      accessFile: undefined,
      accessFileMaxBytes: 10 * 1024 * 1024,
      accessFileKeep: 2,
    });
    expect(c.metrics).toEqual({ enabled: true, auth: 'admin-token', listen: undefined });
  });

  it('the embedded default (npm start) writes the access log', () => {
    expect(embeddedConfig({ listen: '127.0.0.1:0', dataDir: '/tmp/x' }).log).toMatchObject({
      level: 'warn',
      format: 'text',
      access: true,
      accessFile: undefined,
    });
  });

  it('a metrics listener of its own is open unless told otherwise', () => {
    expect(validateConfig({ ...base, metrics: { listen: '10.0.0.5:9464' } }).metrics).toEqual({
      enabled: true,
      auth: 'none',
      listen: { host: '10.0.0.5', port: 9464 },
    });
    expect(
      validateConfig({
        ...base,
        metrics: { listen: '[::1]:9464', auth: 'admin-token' },
        log: { level: 'info', access: true },
      }),
    ).toMatchObject({
      metrics: { auth: 'admin-token', listen: { host: '::1', port: 9464 } },
      log: { level: 'info', access: true },
    });
    expect(validateConfig({ ...base, metrics: { enabled: false } }).metrics.enabled).toBe(false);
  });

  it('names the bad field', () => {
    expect(() => validateConfig({ ...base, log: { level: 'loud' } })).toThrow(/^log\.level: must be one of/);
    expect(() => validateConfig({ ...base, log: { access: 'yes' } })).toThrow(/^log\.access: must be true or false/);
    expect(() => validateConfig({ ...base, log: { format: 'pretty' } })).toThrow(
      /^log\.format: must be one of text, json/,
    );
    expect(() => validateConfig({ ...base, log: { colour: true } })).toThrow(/^log\.colour: unknown field/);
    expect(() => validateConfig({ ...base, log: { accessFile: '' } })).toThrow(/^log\.accessFile: must be a file path/);
    expect(() => validateConfig({ ...base, log: { accessFileMaxBytes: 1000 } })).toThrow(
      /^log\.accessFileMaxBytes: must be a whole number, at least 65536/,
    );
    expect(() => validateConfig({ ...base, log: { accessFileKeep: -1 } })).toThrow(/^log\.accessFileKeep: must be/);
    expect(
      validateConfig({
        ...base,
        log: { format: 'json', accessFile: '/var/log/nodegate/access.log', accessFileKeep: 0 },
      }).log,
    ).toMatchObject({ format: 'json', accessFile: '/var/log/nodegate/access.log', accessFileKeep: 0 });
    expect(() => validateConfig({ ...base, metrics: { auth: 'basic' } })).toThrow(/^metrics\.auth: must be one of/);
    expect(() => validateConfig({ ...base, metrics: { listen: '9464' } })).toThrow(
      /^metrics\.listen: expected HOST:PORT/,
    );
    expect(() => validateConfig({ ...base, metrics: [] })).toThrow(/^metrics: must be an object/);
  });
});
