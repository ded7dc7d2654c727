import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  STARKNET_SPEC_VERSION,
  type StarknetApi,
  type StarknetHttpMethodName,
  type StarknetWsMethodName,
  starknetHttpMethodNames,
  starknetSpecMethods,
  starknetSpecNotifications,
} from './index.js';

// The published OpenRPC documents (../shared/fixtures, read in place).
const SPEC_DIR = new URL('../../../../shared/fixtures/starknet-specs-0.10.2/api/', import.meta.url);
const documents: Record<StarknetApi, string> = {
  read: 'starknet_api_openrpc.json',
  write: 'starknet_write_api.json',
  trace: 'starknet_trace_api_openrpc.json',
  executables: 'starknet_executables.json',
  ws: 'starknet_ws_api.json',
};
interface OpenRpcMethod {
  name: string;
  params: { name: string; required?: boolean }[];
  result?: unknown;
}
const published = Object.entries(documents).flatMap(([api, file]) => {
  const doc = JSON.parse(readFileSync(new URL(file, SPEC_DIR), 'utf8')) as {
    info: { version: string };
    methods: OpenRpcMethod[];
  };
  return doc.methods.map((method) => ({ api: api as StarknetApi, method, version: doc.info.version }));
});

describe('starknetSpecMethods', () => {
  it('lists every method of the published 0.10 documents, in its part, with its params in order', () => {
    const requests = published.filter(({ api, method }) => api !== 'ws' || method.result !== undefined);
    const ours = Object.entries(starknetSpecMethods).map(([name, m]) => ({
      name: `starknet_${name}`,
      api: m.api,
      params: m.params,
      required: m.params.slice(0, m.required),
    }));
    const theirs = requests
      // WebSocket notifications have no result: they are listed apart
      .map(({ api, method }) => ({
        name: method.name,
        api,
        params: method.params.map((p) => p.name),
        required: method.params.filter((p) => p.required).map((p) => p.name),
      }));
    expect(ours.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      theirs.sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('lists the WebSocket notifications', () => {
    const notifications = published
      .filter(({ api, method }) => api === 'ws' && method.result === undefined)
      .map(({ method }) => method.name);
    expect([...starknetSpecNotifications].map((n) => `starknet_${n}`).sort()).toEqual(notifications.sort());
  });

  it('serves the version the documents carry', () => {
    const versions = new Set(published.map((p) => p.version));
    expect([...versions]).toContain(STARKNET_SPEC_VERSION);
  });
});

describe('the method name types', () => {
  it('tell HTTP methods from WebSocket ones', () => {
    const http: StarknetHttpMethodName[] = starknetHttpMethodNames;
    const ws: StarknetWsMethodName[] = ['subscribeNewHeads', 'unsubscribe'];
    // @ts-expect-error a subscription is not an HTTP method
    const wrong: StarknetHttpMethodName = 'subscribeNewHeads';
    expect(http).toHaveLength(32);
    expect(http).not.toContain(wrong);
    expect(ws.every((n) => starknetSpecMethods[n].api === 'ws')).toBe(true);
  });
});
