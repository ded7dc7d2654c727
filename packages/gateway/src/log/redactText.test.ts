import { describe, expect, it } from 'vitest';
import { redactText } from './redactText.js';

const KEY = '3111a397c829818d6c438b39442ca3d0';

describe('redactText', () => {
  it('keeps four characters of a key in a path, and of a bare key or secret', () => {
    expect(redactText(`POST /eth-devnet/v3/${KEY}`)).toBe('POST /eth-devnet/v3/3111…');
    expect(redactText(`/ws/v3/${KEY}?x=1 and /v3/${KEY}/`)).toBe('/ws/v3/3111…?x=1 and /v3/3111…/');
    expect(redactText(`/v3/not-a-hex-key-but-long`)).toBe('/v3/not-…');
    expect(redactText(`/x?a=1&key=${KEY}`)).toBe('/x?a=1&key=[redacted]');
    expect(redactText(`"${KEY.toUpperCase()}"`)).toBe('"3111…"');
  });

  it('replaces credentials and leaves hashes, CIDs and short ids alone', () => {
    expect(redactText('Authorization: Basic dXNlcjpwYXNz')).toBe('Authorization: Basic [redacted]');
    expect(redactText('https://u:p@host/path')).toBe('https://[redacted]@host/path');
    const hash = `0x${'0123456789abcdef'.repeat(4)}`;
    expect(redactText(hash)).toBe(hash);
    const cid = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
    expect(redactText(cid)).toBe(cid);
    expect(redactText('request 9f2c61d0-1b')).toBe('request 9f2c61d0-1b');
  });
});
