import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/GatewayError.js';
import { isItemError, parseRpcPayload } from './parseRpcPayload.js';
import { RawId } from './RawId.js';
import { MAX_JSON_DEPTH } from './scanJsonEnvelope.js';
import { serializeResponse } from './serializeResponse.js';

/** Parses a body and answers every item with its id echoed, as the gateway does. */
function echo(body: string): string {
  const payload = parseRpcPayload(body, 100);
  const answer = (item: (typeof payload & { kind: 'single' })['item']) =>
    isItemError(item)
      ? serializeResponse({ jsonrpc: '2.0', id: item.id, error: { code: item.invalid.code, message: 'x' } })
      : serializeResponse({ jsonrpc: '2.0', id: item.id ?? null, result: '0x1' });
  return payload.kind === 'single' ? answer(payload.item) : `[${payload.items.map(answer).join(',')}]`;
}

const IDS = ['1e400', '123456789012345678901234567890', '-0', '1.0', '"str"', 'null', '7', '-12', '0.5', '1E+2'];

describe('parseRpcPayload ids', () => {
  for (const id of IDS) {
    it(`echoes the id ${id} byte for byte in a single request`, () => {
      expect(echo(`{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`)).toBe(
        `{"jsonrpc":"2.0","id":${id},"result":"0x1"}`,
      );
    });
  }

  it('echoes every id of a batch byte for byte, in order', () => {
    const body = `[${IDS.map((id) => `{"jsonrpc":"2.0","id":${id},"method":"eth_chainId","params":[{"id":1}]}`).join(' , ')}]`;
    expect(echo(body)).toBe(`[${IDS.map((id) => `{"jsonrpc":"2.0","id":${id},"result":"0x1"}`).join(',')}]`);
  });

  it('echoes exact ids on envelope errors too', () => {
    expect(echo('[{"jsonrpc":"1.0","id":1e400,"method":"m"},{"jsonrpc":"2.0","id":2.50}]')).toBe(
      '[{"jsonrpc":"2.0","id":1e400,"error":{"code":-32600,"message":"x"}},{"jsonrpc":"2.0","id":2.50,"error":{"code":-32600,"message":"x"}}]',
    );
  });

  it('keeps strings and safe integers as plain values (the fast path)', () => {
    const payload = parseRpcPayload(
      '[{"jsonrpc":"2.0","id":42,"method":"a"},{"jsonrpc":"2.0","id":"42","method":"b"}]',
      10,
    );
    expect(payload).toEqual({
      kind: 'batch',
      items: [
        { id: 42, method: 'a', params: undefined },
        { id: '42', method: 'b', params: undefined },
      ],
    });
    const big = parseRpcPayload('{"jsonrpc":"2.0","id":1e400,"method":"a"}', 10);
    expect(big.kind === 'single' && big.item.id).toEqual(new RawId('1e400'));
  });

  it('is not confused by "id": inside strings, brackets and escaped quotes', () => {
    const body = '{"jsonrpc":"2.0","method":"m","params":["\\"id\\":1.0,[{", {"id": 2.0}],"id":3.0}';
    expect(echo(body)).toBe('{"jsonrpc":"2.0","id":3.0,"result":"0x1"}');
  });

  it('leaves notifications without an id', () => {
    const payload = parseRpcPayload('{"jsonrpc":"2.0","method":"m","params":{"id":1e400}}', 10);
    expect(payload).toEqual({
      kind: 'single',
      item: { id: undefined, method: 'm', params: { id: Number.POSITIVE_INFINITY } },
    });
  });
});

describe('parseRpcPayload nesting', () => {
  const deep = (levels: number) =>
    `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

  it(`accepts a body nested exactly ${MAX_JSON_DEPTH} levels`, () => {
    expect(parseRpcPayload(deep(MAX_JSON_DEPTH), 10).kind).toBe('single');
  });

  it('refuses params nested 5,000 levels deep before JSON.parse, with -32600', () => {
    for (const body of [deep(5000), `[${deep(MAX_JSON_DEPTH)}]`, deep(MAX_JSON_DEPTH + 1)]) {
      let caught: unknown;
      try {
        parseRpcPayload(body, 10);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(GatewayError);
      expect(caught).toMatchObject({
        kind: 'INVALID_REQUEST',
        code: -32600,
        message: `invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
  });

  it('still reports unparseable bodies as parse errors', () => {
    expect(() => parseRpcPayload('{"jsonrpc":', 10)).toThrow(expect.objectContaining({ kind: 'PARSE_ERROR' }));
  });
});
