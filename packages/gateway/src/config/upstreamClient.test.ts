import { describe, expect, it } from 'vitest';
import { validateConfig } from './validateConfig.js';

const upstream = (u: Record<string, unknown>) =>
  validateConfig({
    networks: [
      {
        name: 'chain',
        family: 'eth',
        pathPrefix: '/chain',
        upstreams: [{ name: 'a', http: 'http://127.0.0.1:1', ...u }],
      },
    ],
  }).networks[0]!.upstreams[0]!;

describe("an upstream's HTTP client and headers", () => {
  it('client: nodegate by default (absent), or undici', () => {
    expect(upstream({}).client).toBeUndefined();
    expect(upstream({ client: 'undici' }).client).toBe('undici');
    expect(upstream({ client: 'nodegate' }).client).toBe('nodegate');
    expect(() => upstream({ client: 'curl' })).toThrow(/client.*"nodegate".*"undici"/);
  });

  it('headers must be what an HTTP/1.1 head can carry: refused naming the field', () => {
    expect(upstream({ headers: { 'x-api-key': 'k 1' } }).headers).toEqual({ 'x-api-key': 'k 1' });
    expect(() => upstream({ headers: { 'x-api-key': 'a\r\nx-evil: 1' } })).toThrow(/headers\.x-api-key.*visible ASCII/);
    expect(() => upstream({ headers: { 'bad name': 'v' } })).toThrow(/"bad name" is not a header name/);
  });
});
