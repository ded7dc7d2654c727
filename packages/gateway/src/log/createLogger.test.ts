import { describe, expect, it } from 'vitest';
import { createLogger } from './createLogger.js';

const KEY = '3111a397c829818d6c438b39442ca3d0';
const SECRET = '9f86d081884c7d659a2feaa0c55ad015';

describe('createLogger', () => {
  it('writes JSON lines at or above its level only', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (l) => lines.push(l));
    log.info('not shown');
    log.warn('shown', { a: 1 });
    log.error('also shown');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({ level: 'warn', msg: 'shown', a: 1 });
    expect(Date.parse(first.time)).toBeGreaterThan(0);
    expect(lines.every((l) => l.endsWith('\n') && l.indexOf('\n') === l.length - 1)).toBe(true);
    const silent: string[] = [];
    createLogger('silent', (l) => silent.push(l)).error('x');
    expect(silent).toEqual([]);
  });

  it('redacts keys and secrets in the message, in fields, in URLs and in errors', () => {
    const lines: string[] = [];
    const log = createLogger('info', (l) => lines.push(l));
    const cause = new Error(`upstream refused https://user:${SECRET}@node.example/?apikey=${KEY}`);
    log.error(`request to /eth-devnet/v3/${KEY} failed`, {
      path: `/eth-devnet/ws/v3/${KEY}/extra`,
      url: new URL(`http://127.0.0.1:8550/starknet-devnet/v3/${KEY}?x=1`),
      key: KEY,
      secret: SECRET,
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}` },
      note: `key ${KEY} with secret ${SECRET}; bearer: Bearer abc.def.ghi`,
      error: new Error(`failed for /v3/${KEY}`, { cause }),
      blockHash: `0x${'ab'.repeat(32)}`,
    });
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).not.toContain(KEY);
    expect(line).not.toContain(SECRET);
    expect(line).not.toContain(KEY.slice(0, 8));
    expect(line).not.toContain('abc.def.ghi');
    expect(line).not.toContain(Buffer.from(`${KEY}:${SECRET}`).toString('base64'));
    const o = JSON.parse(line);
    expect(o.msg).toBe('request to /eth-devnet/v3/3111… failed');
    expect(o.path).toBe('/eth-devnet/ws/v3/3111…/extra');
    expect(o.url).toBe('http://127.0.0.1:8550/starknet-devnet/v3/3111…?x=1');
    expect(o.key).toBe('3111…');
    expect(o.secret).toBe('[redacted]');
    expect(o.headers.authorization).toBe('[redacted]');
    expect(o.note).toBe('key 3111… with secret 9f86…; bearer: Bearer [redacted]');
    expect(o.error).toMatchObject({ name: 'Error', message: 'failed for /v3/3111…' });
    expect(o.error.stack).toContain('failed for /v3/3111…');
    expect(o.error.cause.message).toBe('upstream refused https://[redacted]@node.example/?apikey=[redacted]');
    // hashes are longer than keys and stay whole
    expect(o.blockHash).toBe(`0x${'ab'.repeat(32)}`);
  });
});

describe('createLogger, text format', () => {
  it('writes one human line per call: time, level, message, name=value fields; at or above its level only', () => {
    const lines: string[] = [];
    const log = createLogger('warn', (l) => lines.push(l), 'text');
    log.info('not shown');
    log.warn('upstream anvil slow', { upstream: 'anvil', latencyMs: 812, note: 'two words', none: undefined });
    log.error('failed', {
      error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8545'), { code: 'ECONNREFUSED' }),
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d warn {2}upstream anvil slow upstream=anvil latencyMs=812 note="two words"\n$/,
    );
    // an error is its message and code, never its stack (one line)
    expect(lines[1]).toMatch(
      /^\d\d:\d\d:\d\d error failed error="connect ECONNREFUSED 127\.0\.0\.1:8545 \(ECONNREFUSED\)"\n$/,
    );
    expect(lines.every((l) => l.indexOf('\n') === l.length - 1)).toBe(true);
    const silent: string[] = [];
    createLogger('silent', (l) => silent.push(l), 'text').error('x');
    expect(silent).toEqual([]);
  });

  it('redacts keys and secrets as the JSON format does, and never lets a client start a line', () => {
    const lines: string[] = [];
    const log = createLogger('info', (l) => lines.push(l), 'text');
    log.warn(`refused /eth-devnet/v3/${KEY}\nfake 12:00:00 error line`, {
      key: KEY,
      secret: SECRET,
      method: `eth_x\n12:00:00 error injected ${KEY}`,
      url: new URL(`http://u:${SECRET}@node.example/v3/${KEY}`),
    });
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.indexOf('\n')).toBe(line.length - 1);
    expect(line).not.toContain(KEY);
    expect(line).not.toContain(SECRET);
    expect(line).toContain('refused /eth-devnet/v3/3111…\\nfake 12:00:00 error line');
    expect(line).toContain('key=3111…');
    expect(line).toContain('secret=[redacted]');
    expect(line).toContain('method="eth_x\\n12:00:00 error injected 3111…"');
  });
});

describe('createLogger, text format: values', () => {
  it('prints arrays and objects as compact JSON, cut when long', () => {
    const lines: string[] = [];
    createLogger('warn', (l) => lines.push(l), 'text').warn('x', {
      first: ['. 0755', 'notes.txt 0644'],
      big: 'y'.repeat(400),
    });
    expect(lines[0]).toContain('first=[". 0755","notes.txt 0644"]');
    expect(lines[0]).toContain(`big=${'y'.repeat(300)}…`);
  });
});
