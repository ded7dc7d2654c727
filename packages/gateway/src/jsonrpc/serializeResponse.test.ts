import { describe, expect, it } from 'vitest';
import { RawId } from './RawId.js';
import { RawJson } from './RawJson.js';
import { serializeResponse } from './serializeResponse.js';

describe('serializeResponse', () => {
  it('splices a RawId and a RawJson result as they are', () => {
    expect(serializeResponse({ jsonrpc: '2.0', id: new RawId('1e400'), result: new RawJson('{"a":[1]}') })).toBe(
      '{"jsonrpc":"2.0","id":1e400,"result":{"a":[1]}}',
    );
    expect(serializeResponse({ jsonrpc: '2.0', id: 'x', result: new RawJson('"0x1"') })).toBe(
      '{"jsonrpc":"2.0","id":"x","result":"0x1"}',
    );
  });

  it('splices a RawId into results and errors', () => {
    expect(serializeResponse({ jsonrpc: '2.0', id: new RawId('-0'), result: { b: 'c' } })).toBe(
      '{"jsonrpc":"2.0","id":-0,"result":{"b":"c"}}',
    );
    expect(serializeResponse({ jsonrpc: '2.0', id: new RawId('1.0'), error: { code: -32601, message: 'no' } })).toBe(
      '{"jsonrpc":"2.0","id":1.0,"error":{"code":-32601,"message":"no"}}',
    );
    expect(serializeResponse({ jsonrpc: '2.0', id: new RawId('1.0'), result: null })).toBe(
      '{"jsonrpc":"2.0","id":1.0,"result":null}',
    );
  });

  it('plain ids take the JSON.stringify path', () => {
    expect(serializeResponse({ jsonrpc: '2.0', id: 7, result: '0x1' })).toBe('{"jsonrpc":"2.0","id":7,"result":"0x1"}');
    expect(serializeResponse({ jsonrpc: '2.0', id: null, error: { code: 1, message: 'm' } })).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}',
    );
  });

  it('a RawId serialised by plain JSON.stringify degrades to its number', () => {
    expect(JSON.stringify({ id: new RawId('1.0') })).toBe('{"id":1}');
  });
});
