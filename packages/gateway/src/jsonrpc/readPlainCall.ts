import type { RpcRequest } from './types.js';

/** The longest body {@link readPlainCall} reads; a longer one takes the general parser. */
export const PLAIN_CALL_MAX_LENGTH = 4096;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A member already read (one bit each): a second one sends the body to the general parser. */
const JSONRPC = 1;
const ID = 2;
const METHOD = 4;
const PARAMS = 8;

/**
 * Reads the common shape of a JSON-RPC body in one pass, without `JSON.parse` and without
 * building anything but the request: one object whose members are `jsonrpc` (exactly `"2.0"`),
 * `id` (a short integer, a plain string or null), `method` (a plain string) and `params` (an
 * array of plain strings, short integers, `true`, `false` and `null`), each at most once, in any
 * order, with any JSON whitespace between tokens. A plain string is printable ASCII without
 * escapes, so its text is its value; a short integer has at most 15 digits, no leading zero and
 * is not `-0`, so its text is what JavaScript writes for it. Such a body means exactly what
 * `JSON.parse` would read, and no id in it needs its source text kept (no `RawId`).
 *
 * Anything else (another member, a duplicate, an escape, a float, a nested value, a body over
 * {@link PLAIN_CALL_MAX_LENGTH}, invalid JSON, an envelope that is not a valid request) returns
 * `undefined`: the general parser (`parseRpcPayload`) reads it and gives its exact answer or
 * error. So this is a shortcut, never a second opinion.
 *
 * @example
 * readPlainCall('{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}')
 * // { id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] }
 * readPlainCall('{"jsonrpc":"2.0","id":1.5,"method":"eth_chainId"}') // undefined (a float id)
 */
export function readPlainCall(body: string): RpcRequest | undefined {
  const n = body.length;
  if (n > PLAIN_CALL_MAX_LENGTH) return undefined;
  let i = 0;
  while (i < n && isSpace(body.charCodeAt(i))) i++;
  if (body.charCodeAt(i) !== OPEN_OBJECT) return undefined;
  i++;
  let seen = 0;
  let id: string | number | null | undefined;
  let method: string | undefined;
  let params: unknown[] | undefined;
  for (;;) {
    while (i < n && isSpace(body.charCodeAt(i))) i++;
    // a member name: one of the four, read as a plain string
    if (body.charCodeAt(i) !== QUOTE) return undefined;
    const nameEnd = plainStringEnd(body, i + 1);
    if (nameEnd < 0) return undefined;
    const name = body.slice(i + 1, nameEnd);
    i = nameEnd + 1;
    while (i < n && isSpace(body.charCodeAt(i))) i++;
    if (body.charCodeAt(i) !== COLON) return undefined;
    i++;
    while (i < n && isSpace(body.charCodeAt(i))) i++;
    const c = body.charCodeAt(i);
    if (name === 'jsonrpc') {
      if (seen & JSONRPC) return undefined;
      seen |= JSONRPC;
      // exactly "2.0"
      if (c !== QUOTE || body.charCodeAt(i + 4) !== QUOTE || body.slice(i + 1, i + 4) !== '2.0') return undefined;
      i += 5;
    } else if (name === 'id') {
      if (seen & ID) return undefined;
      seen |= ID;
      if (c === QUOTE) {
        const end = plainStringEnd(body, i + 1);
        if (end < 0) return undefined;
        id = body.slice(i + 1, end);
        i = end + 1;
      } else if (c === 0x6e /* n */ && body.startsWith('null', i)) {
        id = null;
        i += 4;
      } else {
        const end = shortIntegerEnd(body, i);
        if (end < 0) return undefined;
        id = Number(body.slice(i, end));
        i = end;
      }
    } else if (name === 'method') {
      if (seen & METHOD) return undefined;
      seen |= METHOD;
      if (c !== QUOTE) return undefined;
      const end = plainStringEnd(body, i + 1);
      if (end <= i + 1) return undefined; // not a plain string, or empty (the general parser says why)
      method = body.slice(i + 1, end);
      i = end + 1;
    } else if (name === 'params') {
      if (seen & PARAMS) return undefined;
      seen |= PARAMS;
      if (c !== OPEN_ARRAY) return undefined;
      const list: unknown[] = [];
      i++;
      while (i < n && isSpace(body.charCodeAt(i))) i++;
      if (body.charCodeAt(i) === CLOSE_ARRAY) i++;
      else {
        for (;;) {
          const v = body.charCodeAt(i);
          if (v === QUOTE) {
            const end = plainStringEnd(body, i + 1);
            if (end < 0) return undefined;
            list.push(body.slice(i + 1, end));
            i = end + 1;
          } else if (v === 0x74 /* t */ && body.startsWith('true', i)) {
            list.push(true);
            i += 4;
          } else if (v === 0x66 /* f */ && body.startsWith('false', i)) {
            list.push(false);
            i += 5;
          } else if (v === 0x6e /* n */ && body.startsWith('null', i)) {
            list.push(null);
            i += 4;
          } else {
            const end = shortIntegerEnd(body, i);
            if (end < 0) return undefined;
            list.push(Number(body.slice(i, end)));
            i = end;
          }
          while (i < n && isSpace(body.charCodeAt(i))) i++;
          const next = body.charCodeAt(i);
          i++;
          if (next === CLOSE_ARRAY) break;
          if (next !== COMMA) return undefined;
          while (i < n && isSpace(body.charCodeAt(i))) i++;
        }
      }
      params = list;
    } else {
      return undefined;
    }
    while (i < n && isSpace(body.charCodeAt(i))) i++;
    const next = body.charCodeAt(i);
    i++;
    if (next === CLOSE_OBJECT) break;
    if (next !== COMMA) return undefined;
  }
  while (i < n && isSpace(body.charCodeAt(i))) i++;
  if (i !== n || (seen & (JSONRPC | METHOD)) !== (JSONRPC | METHOD)) return undefined;
  // the same request `parseRpcPayload` makes of this body
  return { id, method: method!, params };
}

/**
 * The index of the quote that closes a plain string whose content starts at `from`, or -1 when
 * the string holds anything but printable ASCII other than `"` and `\` (an escape, a control
 * character, a non-ASCII character) or does not close.
 */
function plainStringEnd(s: string, from: number): number {
  const n = s.length;
  for (let i = from; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) return i;
    if (c < 0x20 || c > 0x7e || c === BACKSLASH) return -1;
  }
  return -1;
}

/**
 * The index just past an integer of at most 15 digits starting at `from` (a leading `-`, no
 * leading zero, not `-0`), or -1 when the number there is anything else (a fraction, an
 * exponent, more digits).
 */
function shortIntegerEnd(s: string, from: number): number {
  let i = from;
  const negative = s.charCodeAt(i) === MINUS;
  if (negative) i++;
  const first = s.charCodeAt(i);
  if (first < ZERO || first > NINE) return -1;
  if (first === ZERO) {
    if (negative) return -1; // -0
    i++;
  } else {
    const start = i;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c < ZERO || c > NINE) break;
      i++;
    }
    if (i - start > 15) return -1;
  }
  const after = s.charCodeAt(i);
  // a fraction or an exponent follows: not a short integer
  if (after === 0x2e || after === 0x65 || after === 0x45 || (after >= ZERO && after <= NINE)) return -1;
  return i;
}
