import { describe, expect, it } from 'vitest';
import { OPEN_SETTINGS } from '../KeySettings.js';
import { originAllowed } from './originAllowed.js';

const withOrigins = (...allowedOrigins: string[]) => ({ ...OPEN_SETTINGS, allowedOrigins });

describe('originAllowed', () => {
  it('an empty list allows every origin, and none', () => {
    expect(originAllowed(OPEN_SETTINGS, 'https://evil.example')).toBe(true);
    expect(originAllowed(OPEN_SETTINGS, undefined)).toBe(true);
  });

  it('a full origin entry pins scheme, host and port', () => {
    const s = withOrigins('https://app.example.com');
    expect(originAllowed(s, 'https://app.example.com')).toBe(true);
    expect(originAllowed(s, 'https://APP.Example.COM')).toBe(true);
    expect(originAllowed(s, 'https://app.example.com:443')).toBe(true);
    expect(originAllowed(s, 'http://app.example.com')).toBe(false);
    expect(originAllowed(s, 'https://app.example.com:8443')).toBe(false);
    expect(originAllowed(s, 'https://app.example.com.evil.net')).toBe(false);
    expect(originAllowed(s, 'https://sub.app.example.com')).toBe(false);
    const port = withOrigins('http://localhost:3000');
    expect(originAllowed(port, 'http://localhost:3000')).toBe(true);
    expect(originAllowed(port, 'http://localhost:3001')).toBe(false);
    expect(originAllowed(port, 'http://localhost')).toBe(false);
  });

  it('a bare host entry allows any scheme and port', () => {
    const s = withOrigins('App.Example.com');
    expect(originAllowed(s, 'https://app.example.com')).toBe(true);
    expect(originAllowed(s, 'http://app.example.com:8080')).toBe(true);
    expect(originAllowed(s, 'https://example.com')).toBe(false);
    expect(originAllowed(s, 'https://xapp.example.com')).toBe(false);
    const pinned = withOrigins('app.example.com:8080');
    expect(originAllowed(pinned, 'http://app.example.com:8080')).toBe(true);
    expect(originAllowed(pinned, 'http://app.example.com')).toBe(false);
  });

  it('a wildcard allows any subdomain, not the domain itself', () => {
    const s = withOrigins('*.example.com');
    expect(originAllowed(s, 'https://app.example.com')).toBe(true);
    expect(originAllowed(s, 'http://a.b.EXAMPLE.com:9000')).toBe(true);
    expect(originAllowed(s, 'https://example.com')).toBe(false);
    expect(originAllowed(s, 'https://badexample.com')).toBe(false);
    expect(originAllowed(s, 'https://example.com.evil.net')).toBe(false);
    const scheme = withOrigins('https://*.example.com');
    expect(originAllowed(scheme, 'https://app.example.com')).toBe(true);
    expect(originAllowed(scheme, 'http://app.example.com')).toBe(false);
  });

  it('refuses a missing or malformed origin when the list is non-empty', () => {
    const s = withOrigins('app.example.com', '*.example.com');
    for (const origin of [
      undefined,
      '',
      'null',
      'app.example.com',
      'https://',
      'https://app.example.com/path',
      'https://user@app.example.com',
      'https://app.example.com:99999',
    ]) {
      expect(originAllowed(s, origin)).toBe(false);
    }
  });

  it('any entry may match; malformed entries match nothing', () => {
    const s = withOrigins('https://', '::::', 'https://one.test', 'two.test');
    expect(originAllowed(s, 'https://one.test')).toBe(true);
    expect(originAllowed(s, 'wss://two.test')).toBe(true);
    expect(originAllowed(s, 'https://three.test')).toBe(false);
    expect(originAllowed(withOrigins('::::'), 'https://three.test')).toBe(false);
  });

  it('handles IPv6 and Unicode hosts', () => {
    expect(originAllowed(withOrigins('http://[::1]:8545'), 'http://[::1]:8545')).toBe(true);
    expect(originAllowed(withOrigins('http://[::1]:8545'), 'http://[::2]:8545')).toBe(false);
    expect(originAllowed(withOrigins('bücher.example'), 'https://xn--bcher-kva.example')).toBe(true);
  });
});
