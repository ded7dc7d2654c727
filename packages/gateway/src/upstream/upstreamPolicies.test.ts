import { describe, expect, it } from 'vitest';
import { classifyUpstreamError } from './classifyUpstreamError.js';
import { createCircuitBreaker } from './createCircuitBreaker.js';
import { createUpstreamStats } from './createUpstreamStats.js';
import { UpstreamTransportError } from './UpstreamTransportError.js';

describe('classifyUpstreamError', () => {
  it("tells the node's trouble from the client's error and from a missing method", () => {
    // what nodes answer when they, not the request, are the problem (geth, erigon, reth, providers)
    for (const message of [
      'header not found',
      'missing trie node 5e3c… (path )',
      'unknown block',
      'required historical state unavailable (reexec=128)',
      'block not found',
      'request beyond head block',
    ]) {
      expect(classifyUpstreamError({ code: -32000, message }).kind, message).toBe('unavailable');
    }
    expect(classifyUpstreamError({ code: -32005, message: 'limit exceeded' }).kind).toBe('unavailable');
    expect(classifyUpstreamError({ code: 429, message: 'Too Many Requests' }).kind).toBe('unavailable');
    // the client's own errors go back as they are
    expect(classifyUpstreamError({ code: 3, message: 'execution reverted: ERC20: insufficient balance' }).kind).toBe(
      'client',
    );
    expect(classifyUpstreamError({ code: -32602, message: 'invalid argument 0: hex string has odd length' }).kind).toBe(
      'client',
    );
    expect(classifyUpstreamError({ code: -32000, message: 'nonce too low' }).kind).toBe('client');
    // Starknet's spec errors are answers, whatever their wording
    expect(classifyUpstreamError({ code: 24, message: 'Block not found' }).kind).toBe('client');
    expect(classifyUpstreamError({ code: 29, message: 'Transaction hash not found' }).kind).toBe('client');
    expect(classifyUpstreamError({ code: -32601, message: 'the method trace_block does not exist' }).kind).toBe(
      'unsupported',
    );
  });

  it('transport failures are unavailable and keep Retry-After', () => {
    const v = classifyUpstreamError(
      new UpstreamTransportError('http-status', 'upstream answered HTTP 429', false, {
        status: 429,
        retryAfterMs: 1000,
      }),
    );
    expect(v).toEqual({ kind: 'unavailable', reason: 'upstream answered HTTP 429', retryAfterMs: 1000 });
  });
});

describe('createCircuitBreaker', () => {
  it('opens after failures in a row, lets one trial through after the open time, and closes on its success', () => {
    const changes: string[] = [];
    const b = createCircuitBreaker(
      { failuresToOpen: 3, errorRateToOpen: 0.9, window: 20, openMs: 1_000, maxOpenMs: 8_000 },
      (from, to) => changes.push(`${from}->${to}`),
    );
    b.failure(0);
    b.failure(0);
    expect(b.state()).toBe('closed');
    b.failure(0);
    expect(b.state()).toBe('open');
    expect(b.allow(500)).toBe(false);
    expect(b.allow(1_000)).toBe(true); // the trial
    expect(b.state()).toBe('half-open');
    expect(b.allow(1_001)).toBe(false); // one trial at a time
    b.success();
    expect(b.state()).toBe('closed');
    expect(changes).toEqual(['closed->open', 'open->half-open', 'half-open->closed']);
  });

  it('a failed trial opens it for twice as long; a high error rate opens it too', () => {
    const b = createCircuitBreaker({
      failuresToOpen: 2,
      errorRateToOpen: 0.5,
      window: 10,
      openMs: 100,
      maxOpenMs: 300,
    });
    b.failure(0);
    b.failure(0);
    expect(b.allow(100)).toBe(true);
    b.failure(100);
    expect(b.allow(250)).toBe(false);
    expect(b.allow(300)).toBe(true); // 200 ms later
    b.failure(300);
    expect(b.allow(599)).toBe(false);
    expect(b.allow(600)).toBe(true); // capped at 300 ms
    b.success();
    // alternating outcomes: never two failures in a row, but 60 % of them fail
    const r = createCircuitBreaker({
      failuresToOpen: 100,
      errorRateToOpen: 0.5,
      window: 10,
      openMs: 100,
      maxOpenMs: 100,
    });
    for (const failed of [true, false, true, true, false, true]) {
      if (failed) r.failure(0);
      else r.success();
    }
    expect(r.state()).toBe('open');
  });
});

describe('createUpstreamStats', () => {
  it('scores latency, errors and lag (lower is better) and knows its p95', () => {
    const fast = createUpstreamStats();
    const slow = createUpstreamStats();
    for (let i = 0; i < 100; i++) {
      fast.record(i < 95 ? 2 : 40, true);
      slow.record(20, true);
    }
    expect(fast.score()).toBeLessThan(slow.score());
    expect(fast.p95Ms()).toBe(40);
    const steady = createUpstreamStats();
    const failing = createUpstreamStats();
    for (let i = 0; i < 100; i++) {
      steady.record(2, true);
      failing.record(2, i % 2 === 0);
    }
    expect(failing.score()).toBeGreaterThan(steady.score() * 5);
    fast.setLag(10);
    expect(fast.score()).toBeGreaterThan(slow.score());
  });
});
