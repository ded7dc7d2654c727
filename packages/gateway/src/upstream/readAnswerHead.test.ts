import { describe, expect, it } from 'vitest';
import { readAnswerHead } from './readAnswerHead.js';

describe('readAnswerHead', () => {
  it.each([
    [
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 40',
      { status: 200, framing: 'length', length: 40, keepAlive: true },
    ],
    [
      'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\ncontent-length: 9',
      { status: 200, framing: 'chunked', keepAlive: true },
    ],
    ['HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip', { status: 200, framing: 'close', keepAlive: false }],
    ['HTTP/1.1 200 OK', { status: 200, framing: 'close', keepAlive: false }],
    ['HTTP/1.1 204 No Content', { status: 204, framing: 'none', keepAlive: true }],
    ['HTTP/1.1 100 Continue', { status: 100, framing: 'none' }],
    ['HTTP/1.1 200 OK\r\nConnection: Close\r\ncontent-length: 2', { framing: 'length', keepAlive: false }],
    ['HTTP/1.0 200 OK\r\ncontent-length: 2', { framing: 'length', keepAlive: false }],
    ['HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 2', { keepAlive: true }],
    ['HTTP/1.1 200\r\ncontent-length: 2\r\nkeep-alive: timeout=5, max=100', { status: 200, keepAliveS: 5 }],
    ['HTTP/1.1 429 Too Many\r\nretry-after: 3\r\ncontent-length: 0', { status: 429, retryAfter: '3', length: 0 }],
    ['HTTP/1.1 200 OK\r\nretry-after: 3\r\ncontent-length: 0', { status: 200, retryAfter: undefined }],
    ['HTTP/1.1 200 OK\r\ncontent-length: 5\r\ncontent-length: 5', { length: 5 }],
  ])('%j', (text, expected) => {
    expect(readAnswerHead(text)).toMatchObject(expected);
  });

  it.each([
    ['HTTP/2 200'],
    ['ICY 200 OK'],
    ['HTTP/1.1 2x0 OK'],
    ['HTTP/1.1 200OK'],
    ['HTTP/1.1 200 OK\r\ncontent-length: -1'],
    ['HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2'],
    ['HTTP/1.1 200 OK\r\nno colon here'],
    ['HTTP/1.1 200 OK\r\n: empty name'],
    ['HTTP/1.1 200 OK\r\nx-a: 1\r\n folded'],
  ])('refuses %j', (text) => {
    expect(() => readAnswerHead(text)).toThrow(/not HTTP\/1\.1 as expected/);
  });
});
