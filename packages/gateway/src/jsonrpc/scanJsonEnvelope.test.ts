import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, scanJsonEnvelope } from './scanJsonEnvelope.js';

const nested = (levels: number, inner = '1') => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

describe('scanJsonEnvelope', () => {
  it('records the source text of a numeric id of a single request', () => {
    const scan = scanJsonEnvelope('{"jsonrpc":"2.0","id":1e400,"method":"eth_chainId"}');
    expect(scan).toEqual({ depth: 1, tooDeep: false, numericIds: ['1e400'] });
  });

  it('records one id per batch element, by element index', () => {
    const scan = scanJsonEnvelope(
      '[{"id":1.0,"method":"a"}, {"id":"x"}, 5, {"method":"b"}, {"id" : -0 }, [{"id":7}], {"id":123456789012345678901234567890}]',
    );
    expect(scan.numericIds).toEqual([
      '1.0',
      undefined,
      undefined,
      undefined,
      '-0',
      undefined,
      '123456789012345678901234567890',
    ]);
    expect(scan.depth).toBe(3);
  });

  it('ignores "id" inside strings, nested objects and params', () => {
    const body = '{"method":"x\\"id\\":99,[{","params":[{"id":42},"\\\\","{\\"id\\":3}"],"note":"]]}}","id":"\\"7"}';
    expect(JSON.parse(body).id).toBe('"7');
    expect(scanJsonEnvelope(body).numericIds).toEqual([undefined]);
    const body2 = '{"params":{"id":1,"x":[{"id":2}]},"a":"\\\\\\"","id":12345678901234567890}';
    expect(JSON.parse(body2).params.id).toBe(1);
    expect(scanJsonEnvelope(body2).numericIds).toEqual(['12345678901234567890']);
  });

  it('treats a value that looks like the key "id" as a value, not a key', () => {
    expect(scanJsonEnvelope('{"method":"id","x":"id","id":3.50}').numericIds).toEqual(['3.50']);
    expect(scanJsonEnvelope('{"x":["id",1],"id":1E2}').numericIds).toEqual(['1E2']);
  });

  it('reads a key spelled with escapes, and keeps the last of duplicate ids', () => {
    expect(scanJsonEnvelope('{"\\u0069d":1.50}').numericIds).toEqual(['1.50']);
    expect(scanJsonEnvelope('{"id":1.0,"id":2.0}').numericIds).toEqual(['2.0']);
    expect(scanJsonEnvelope('{"id":1.0,"id":"s"}').numericIds).toEqual([undefined]);
  });

  it('brackets inside strings do not count towards the depth', () => {
    const body = `{"params":["${'['.repeat(1000)}${'{'.repeat(1000)}"]}`;
    expect(scanJsonEnvelope(body)).toMatchObject({ depth: 2, tooDeep: false });
  });

  it('measures depth and stops past the limit', () => {
    expect(scanJsonEnvelope(nested(MAX_JSON_DEPTH))).toMatchObject({ depth: MAX_JSON_DEPTH, tooDeep: false });
    expect(scanJsonEnvelope(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ depth: MAX_JSON_DEPTH + 1, tooDeep: true });
    expect(scanJsonEnvelope(nested(5000))).toMatchObject({ depth: MAX_JSON_DEPTH + 1, tooDeep: true });
    expect(scanJsonEnvelope(nested(10), 3)).toMatchObject({ depth: 4, tooDeep: true });
  });

  it('never throws on malformed input', () => {
    for (const body of ['', '"unterminated', '{"id":', '{"id"', '{"\\', ']]]]', '{"id":-', '[{"id":1,', '"\\\\\\"']) {
      expect(() => scanJsonEnvelope(body)).not.toThrow();
    }
  });

  it('scans a 5 MB body with long strings and many escapes', () => {
    const items: string[] = [];
    let size = 0;
    while (size < 5_000_000) {
      const item = JSON.stringify({
        jsonrpc: '2.0',
        id: items.length,
        method: 'eth_sendRawTransaction',
        params: [`0x${'ab'.repeat(20_000)}`, 'q"u\\o"t{e[s'.repeat(500)],
      });
      items.push(item);
      size += item.length + 1;
    }
    const body = `[${items.join(',').replace(/"id":0,/, '"id":1e400,')}]`;
    expect(body.length).toBeGreaterThan(5_000_000);
    const scan = scanJsonEnvelope(body);
    expect(scan.tooDeep).toBe(false);
    expect(scan.depth).toBe(3);
    expect(scan.numericIds.length).toBe(items.length);
    expect(scan.numericIds[0]).toBe('1e400');
    expect(scan.numericIds[items.length - 1]).toBe(String(items.length - 1));
  });
});
