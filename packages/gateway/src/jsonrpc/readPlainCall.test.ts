import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRpcPayload } from './parseRpcPayload.js';
import { PLAIN_CALL_MAX_LENGTH, readPlainCall } from './readPlainCall.js';

/**
 * What a body means by JSON.parse and the JSON-RPC envelope rules: the single request, or
 * undefined (not JSON, not an object, not a valid request). The oracle readPlainCall must agree with.
 */
function meaning(body: string) {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (o.jsonrpc !== '2.0' || typeof o.method !== 'string' || o.method === '') return undefined;
  const hasId = Object.hasOwn(o, 'id');
  if (hasId && o.id !== null && typeof o.id !== 'string' && typeof o.id !== 'number') return undefined;
  if (o.params !== undefined && (typeof o.params !== 'object' || o.params === null)) return undefined;
  return { id: hasId ? o.id : undefined, method: o.method, params: o.params };
}

/**
 * The general parser's answer for a body: the same body with trailing whitespace past
 * {@link PLAIN_CALL_MAX_LENGTH} (the same JSON; readPlainCall leaves it alone).
 */
function general(body: string): unknown {
  try {
    return parseRpcPayload(`${body}${' '.repeat(PLAIN_CALL_MAX_LENGTH + 1)}`, 100);
  } catch (err) {
    return err;
  }
}

describe('readPlainCall', () => {
  const plain = [
    '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
    '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
    '{"method":"eth_getBalance","params":["0x00000000219ab540356cBB839Cbe05303d7705Fa","latest"],"id":"a b","jsonrpc":"2.0"}',
    ' \t\r\n{ "jsonrpc" : "2.0" , "id" : -42 , "method" : "m" , "params" : [ 1 , true , null , "x" ] } \n',
    '{"jsonrpc":"2.0","id":null,"method":"eth_chainId"}',
    '{"jsonrpc":"2.0","method":"eth_chainId","params":[0,-1,999999999999999]}',
    '{"jsonrpc":"2.0","id":0,"method":"m","params":["", "~!#$%&()*+,-./:;<=>?@[]^_`{|}"]}',
  ];
  for (const body of plain) {
    it(`reads ${body.trim().slice(0, 60)}… as the general parser does`, () => {
      const read = readPlainCall(body);
      expect(read).toBeDefined();
      expect(read).toStrictEqual(meaning(body));
      expect(general(body)).toStrictEqual({ kind: 'single', item: read });
      // parseRpcPayload answers with it
      expect(parseRpcPayload(body, 100)).toStrictEqual({ kind: 'single', item: read });
    });
  }

  const notPlain: Array<[string, string]> = [
    ['a float id', '{"jsonrpc":"2.0","id":1.5,"method":"m"}'],
    ['a fraction id', '{"jsonrpc":"2.0","id":1.0,"method":"m"}'],
    ['an exponent id', '{"jsonrpc":"2.0","id":1e400,"method":"m"}'],
    ['a 16-digit id', '{"jsonrpc":"2.0","id":1234567890123456,"method":"m"}'],
    ['-0', '{"jsonrpc":"2.0","id":-0,"method":"m"}'],
    ['a leading zero', '{"jsonrpc":"2.0","id":01,"method":"m"}'],
    ['an escaped method', '{"jsonrpc":"2.0","id":1,"method":"eth_\\u0063hainId"}'],
    ['an escaped member name', '{"jsonrpc":"2.0","\\u0069d":1,"method":"m"}'],
    ['a non-ASCII string', '{"jsonrpc":"2.0","id":"é","method":"m"}'],
    ['a control character', '{"jsonrpc":"2.0","id":"a\u0001","method":"m"}'],
    ['a duplicate id', '{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}'],
    ['a duplicate method', '{"jsonrpc":"2.0","method":"a","method":"b"}'],
    ['another member', '{"jsonrpc":"2.0","id":1,"method":"m","extra":1}'],
    ['object params', '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}'],
    ['a nested param', '{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x1"},"latest"]}'],
    ['a float param', '{"jsonrpc":"2.0","id":1,"method":"m","params":[1.0]}'],
    ['a wrong version', '{"jsonrpc":"2.00","id":1,"method":"m"}'],
    ['a numeric version', '{"jsonrpc":2.0,"id":1,"method":"m"}'],
    ['no version', '{"id":1,"method":"m"}'],
    ['no method', '{"jsonrpc":"2.0","id":1}'],
    ['an empty method', '{"jsonrpc":"2.0","id":1,"method":""}'],
    ['a numeric method', '{"jsonrpc":"2.0","id":1,"method":5}'],
    ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"m"}]'],
    ['a trailing comma', '{"jsonrpc":"2.0","id":1,"method":"m",}'],
    ['a trailing comma in params', '{"jsonrpc":"2.0","id":1,"method":"m","params":[1,]}'],
    ['trailing text', '{"jsonrpc":"2.0","id":1,"method":"m"}x'],
    ['two objects', '{"jsonrpc":"2.0","id":1,"method":"m"}{}'],
    ['a truncated body', '{"jsonrpc":"2.0","id":1,"method":"m"'],
    ['a misspelt literal', '{"jsonrpc":"2.0","id":nul,"method":"m"}'],
    ['a literal run on', '{"jsonrpc":"2.0","id":1,"method":"m","params":[truex]}'],
    ['a byte order mark', '\ufeff{"jsonrpc":"2.0","id":1,"method":"m"}'],
    ['an empty object', '{}'],
    [
      'a body over the length',
      `{"jsonrpc":"2.0","id":1,"method":"m","params":["${'a'.repeat(PLAIN_CALL_MAX_LENGTH)}"]}`,
    ],
  ];
  for (const [name, body] of notPlain) {
    it(`leaves ${name} to the general parser`, () => {
      expect(readPlainCall(body)).toBeUndefined();
      // the general parser reads it, and parseRpcPayload gives its answer
      let payload: unknown;
      try {
        payload = parseRpcPayload(body, 100);
      } catch (err) {
        payload = err;
      }
      expect(payload).toStrictEqual(general(body));
    });
  }

  it('agrees with JSON.parse on 20,000 generated bodies, plain or not', () => {
    // mostly the plain shape, each part now and then something else; and wild requests
    const plainId = fc.oneof(
      fc.integer({ min: -1e15, max: 1e15 }),
      fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '~', '"', '\\', '\u00e9'), maxLength: 6 }),
      fc.constant(null),
    );
    const id = fc.oneof({ arbitrary: plainId, weight: 6 }, fc.double(), fc.constant(-0), fc.constant(1e16));
    const plainParam = fc.oneof(
      fc.integer({ min: -1e15, max: 1e15 }),
      fc.boolean(),
      fc.constant(null),
      fc.string({ unit: fc.constantFrom('0', 'x', 'f', ' ', '"', '\\', '\n', '\u00e9', '\u{1f600}'), maxLength: 12 }),
    );
    const param = fc.oneof(
      { arbitrary: plainParam, weight: 8 },
      fc.double(),
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const plainish = fc.record(
      {
        jsonrpc: fc.oneof({ arbitrary: fc.constant('2.0'), weight: 9 }, fc.constant('2')),
        id,
        method: fc.oneof(
          { arbitrary: fc.constantFrom('eth_blockNumber', 'eth_getBalance', 'm'), weight: 9 },
          fc.constant(''),
          fc.string({ maxLength: 4 }),
        ),
        params: fc.oneof(
          { arbitrary: fc.array(param, { maxLength: 4 }), weight: 9 },
          fc.dictionary(fc.string(), param),
        ),
      },
      { requiredKeys: ['jsonrpc', 'method'] },
    );
    const wild = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), fc.constant(2)),
        id: fc.jsonValue({ maxDepth: 1 }),
        method: fc.jsonValue({ maxDepth: 1 }),
        params: fc.jsonValue({ maxDepth: 2 }),
        extra: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    );
    const request = fc.oneof({ arbitrary: plainish, weight: 4 }, wild);
    const space = fc.constantFrom('', ' ', '\n', '\t', ' \r\n ');
    const body = fc
      .tuple(request, space, fc.integer({ min: 0, max: 3 }), fc.nat(), fc.string({ maxLength: 2 }))
      .map(([r, pad, indent, cut, junk]) => {
        const text = `${pad}${JSON.stringify(r, null, indent)}${pad}`;
        // now and then a damaged body: cut short, or with a character changed
        if (cut % 7 === 1) return text.slice(0, cut % text.length);
        if (cut % 7 === 2) {
          const at = cut % text.length;
          return `${text.slice(0, at)}${junk}${text.slice(at + 1)}`;
        }
        return text;
      });
    let plainOnes = 0;
    fc.assert(
      fc.property(body, (b) => {
        const read = readPlainCall(b);
        if (read === undefined) return;
        plainOnes++;
        expect(read).toStrictEqual(meaning(b));
        expect(general(b)).toStrictEqual({ kind: 'single', item: read });
      }),
      { numRuns: 20_000 },
    );
    // the generator reaches the shortcut often enough for this to mean something
    expect(plainOnes).toBeGreaterThan(2_500);
  });
});
