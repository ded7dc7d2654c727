import { JsonPostError } from './JsonPostError.js';

/** What a JSON poster needs of an HTTP/1.x answer's head. */
export interface AnswerHead {
  readonly status: number;
  /** The connection may take another request after this answer. */
  readonly keepAlive: boolean;
  /** How the body ends: after `length` bytes, its last chunk, when the connection closes, or at once. */
  readonly framing: 'length' | 'chunked' | 'close' | 'none';
  readonly length: number | undefined;
  /** `Retry-After`, read only on a 429 or a 503. */
  readonly retryAfter: string | undefined;
  /** The `Keep-Alive: timeout=` hint, seconds. */
  readonly keepAliveS: number | undefined;
}

// header names by length: only a name of one of these lengths is lower-cased and compared
const CONTENT_LENGTH = 'content-length';
const TRANSFER_ENCODING = 'transfer-encoding';
const CONNECTION = 'connection';
const KEEP_ALIVE = 'keep-alive';
const RETRY_AFTER = 'retry-after';

/**
 * Reads an answer's head (its text up to the empty line, latin1) without building a header
 * object: the status line, then only the fields that frame the body or the connection, found by
 * the length of their names first. Throws `NG_BAD_ANSWER` when it is not an HTTP/1.0 or 1.1 head,
 * a line has no name, a line is folded, or `Content-Length` is not one number.
 *
 * @example
 * readAnswerHead('HTTP/1.1 200 OK\r\ncontent-length: 40'); // { status: 200, framing: 'length', length: 40, keepAlive: true, … }
 */
export function readAnswerHead(text: string): AnswerHead {
  // "HTTP/1.x NNN" and a space or the line's end
  if (!text.startsWith('HTTP/1.') || text.charCodeAt(8) !== 32) throw bad('it is not HTTP/1.x');
  const minor = text.charCodeAt(7) - 48;
  const status = digit(text, 9) * 100 + digit(text, 10) * 10 + digit(text, 11);
  if (
    (minor !== 0 && minor !== 1) ||
    Number.isNaN(status) ||
    status < 100 ||
    (text.length > 12 && text.charCodeAt(12) !== 32 && text.charCodeAt(12) !== 13)
  )
    throw bad('its status line is not HTTP/1.0 or 1.1');
  let length: number | undefined;
  let chunked = false;
  let encoded = false;
  let close = minor === 0;
  let retryAfter: string | undefined;
  let keepAliveS: number | undefined;
  let at = text.indexOf('\r\n');
  while (at !== -1) {
    const start = at + 2;
    const next = text.indexOf('\r\n', start);
    const end = next === -1 ? text.length : next;
    at = next;
    if (end === start) continue;
    const first = text.charCodeAt(start);
    if (first === 32 || first === 9) throw bad('it folds a header line');
    const colon = text.indexOf(':', start);
    if (colon <= start || colon > end) throw bad('a header line has no name');
    const n = colon - start;
    if (n !== 10 && n !== 11 && n !== 14 && n !== 17) continue;
    const name = text.slice(start, colon).toLowerCase();
    const value = text.slice(colon + 1, end).trim();
    if (name === CONTENT_LENGTH) {
      if (!/^\d{1,15}$/.test(value)) throw bad('its Content-Length is not a number');
      const v = Number(value);
      if (length !== undefined && length !== v) throw bad('it has two Content-Lengths');
      length = v;
    } else if (name === TRANSFER_ENCODING) {
      encoded = true;
      chunked = /(?:^|,)\s*chunked\s*$/i.test(value);
    } else if (name === CONNECTION) {
      const tokens = value.toLowerCase();
      if (/(?:^|,)\s*close\s*(?:,|$)/.test(tokens)) close = true;
      else if (minor === 0 && /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(tokens)) close = false;
    } else if (name === KEEP_ALIVE) {
      const timeout = /(?:^|,)\s*timeout\s*=\s*(\d{1,6})/i.exec(value);
      if (timeout !== null) keepAliveS = Number(timeout[1]);
    } else if (name === RETRY_AFTER && (status === 429 || status === 503)) {
      retryAfter = value;
    }
  }
  const framing: AnswerHead['framing'] = chunked
    ? 'chunked'
    : encoded
      ? 'close'
      : length !== undefined
        ? 'length'
        : status < 200 || status === 204 || status === 304
          ? 'none'
          : 'close';
  return { status, keepAlive: !close && framing !== 'close', framing, length, retryAfter, keepAliveS };
}

const digit = (text: string, at: number): number => {
  const d = text.charCodeAt(at) - 48;
  return d >= 0 && d <= 9 ? d : Number.NaN;
};

const bad = (why: string) =>
  new JsonPostError('NG_BAD_ANSWER', `the upstream's answer is not HTTP/1.1 as expected: ${why}`);
