import { describe, expect, it } from 'vitest';
import type { UsageEvent, UsageRecorder } from '../usage/UsageEvent.js';
import { createAccessLogRecorder } from './createAccessLogRecorder.js';

const KEY = '3111a397c829818d6c438b39442ca3d0';

const event = (over: Partial<UsageEvent> = {}): UsageEvent => ({
  key: KEY,
  accountId: 'acct-1',
  network: 'eth-devnet',
  method: 'eth_call',
  transport: 'http',
  status: 200,
  errorCode: undefined,
  refusal: undefined,
  credits: 80,
  latencyMs: 3,
  bytesIn: 120,
  bytesOut: 66.5,
  upstream: 'anvil',
  at: Date.now(),
  requestId: '9f2c61d0-1b',
  ...over,
});

/** An in-memory recorder: what the access log forwards to. */
function memoryRecorder() {
  const events: UsageEvent[] = [];
  let closed = false;
  const recorder: UsageRecorder = {
    record: (e) => events.push(e),
    flush: async () => {},
    close: async () => {
      closed = true;
    },
  };
  return { recorder, events, closed: () => closed };
}

describe('createAccessLogRecorder', () => {
  it('writes one line per request with its id, method, network, status and latency, and forwards the event', async () => {
    const lines: string[] = [];
    const inner = memoryRecorder();
    const usage = createAccessLogRecorder(inner.recorder, { write: (l) => lines.push(l) });
    usage.record(event());
    usage.record(event({ status: 429, errorCode: -32005, refusal: 'rate', upstream: undefined, credits: 0 }));
    expect(inner.events).toHaveLength(2);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toEqual({
      level: 'info',
      time: expect.any(String),
      msg: 'request',
      requestId: '9f2c61d0-1b',
      network: 'eth-devnet',
      transport: 'http',
      method: 'eth_call',
      status: 200,
      latencyMs: 3,
      key: '3111…',
      credits: 80,
      upstream: 'anvil',
      bytesIn: 120,
      bytesOut: 67,
    });
    expect(JSON.parse(lines[1]!)).toMatchObject({ status: 429, errorCode: -32005, refusal: 'rate' });
    for (const l of lines) {
      expect(l).not.toContain(KEY);
      expect(l).not.toContain('acct-1');
    }
    await usage.close();
    expect(inner.closed()).toBe(true);
  });

  it('leaves subscription notifications out, and shortens and redacts a method the client made up', () => {
    const lines: string[] = [];
    const inner = memoryRecorder();
    const usage = createAccessLogRecorder(inner.recorder, { write: (l) => lines.push(l) });
    usage.record(event({ method: 'eth_subscription', transport: 'ws' }));
    usage.record(event({ method: `eth_${KEY}${'x'.repeat(100)}` }));
    expect(inner.events).toHaveLength(2);
    expect(lines).toHaveLength(1);
    const method = JSON.parse(lines[0]!).method as string;
    expect(method.length).toBeLessThanOrEqual(65);
    expect(lines[0]).not.toContain(KEY);
  });
});
