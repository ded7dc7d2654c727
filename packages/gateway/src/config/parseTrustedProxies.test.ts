import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from './parseTrustedProxies.js';
import { validateConfig } from './validateConfig.js';

const base = {
  networks: [{ name: 'a', family: 'eth', pathPrefix: '/a', upstreams: [{ name: 'x', http: 'http://10.0.0.5:8545' }] }],
};

describe('trustedProxies', () => {
  it('defaults to none; takes addresses and CIDR ranges of both families', () => {
    expect(validateConfig(base).trustedProxies).toEqual([]);
    expect(
      validateConfig({ ...base, trustedProxies: ['127.0.0.1', '10.0.0.0/8', '::1', 'FD00::/8', ' 192.168.1.0/24 '] })
        .trustedProxies,
    ).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '192.168.1.0/24']);
  });

  it('refuses at startup anything else, naming the entry', () => {
    const refusal = (value: unknown) => {
      try {
        parseTrustedProxies(value, 'trustedProxies');
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal('127.0.0.1')).toMatch(/^trustedProxies: must be a list/);
    expect(refusal(['127.0.0.1', 'proxy.internal'])).toMatch(/^trustedProxies\[1\]: "proxy.internal" is not an IP/);
    expect(refusal(['10.0.0.0/33'])).toMatch(/^trustedProxies\[0\]: .*from 0 to 32/);
    expect(refusal(['::/129'])).toMatch(/from 0 to 128/);
    expect(refusal(['10.0.0.0/x'])).toMatch(/prefix length/);
    expect(refusal([true])).toMatch(/^trustedProxies\[0\]: must be an IP/);
    expect(refusal(Array(65).fill('10.0.0.1'))).toMatch(/at most 64/);
    expect(() => validateConfig({ ...base, trustedProxies: ['*'] })).toThrow(/trustedProxies\[0\]/);
  });
});
