import { describe, expect, it } from 'vitest';
import { classifyUpstreamError } from './classifyUpstreamError.js';
import { createCircuitBreaker } from './createCircuitBreaker.js';
import { ethMethods } from '../families/eth/ethMethods.js';
import { starknetMethods } from '../families/starknet/starknetMethods.js';
import { RawJson } from '../jsonrpc/RawJson.js';
import { createLearnedCapabilities } from './createLearnedCapabilities.js';
import { createUpstreamStats } from './createUpstreamStats.js';
import { headOfAnswer } from './headOfAnswer.js';
import { requestedBlock } from './requestedBlock.js';
import { scoreClassOf } from './scoreClassOf.js';
import { UpstreamTransportError } from './UpstreamTransportError.js';

describe('classifyUpstreamError', () => {
  it("tells the node's trouble from the client's error and from a missing method", () => {
    // what nodes and providers answer when they, not the request, are the problem
    for (const message of [
      'node is syncing',
      'no suitable peers available',
      'request timed out',
      'Too many requests, rate limit exceeded',
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
    // anvil's wording for a block beyond its head is an invalid-params answer
    expect(
      classifyUpstreamError({ code: -32602, message: 'BlockOutOfRangeError: block height is 0 but requested was 9' })
        .kind,
    ).toBe('client');
    expect(classifyUpstreamError({ code: -32000, message: 'nonce too low' }).kind).toBe('client');
    // Starknet's spec errors are answers, whatever their wording
    expect(classifyUpstreamError({ code: 24, message: 'Block not found' }).kind).toBe('client');
    expect(classifyUpstreamError({ code: 29, message: 'Transaction hash not found' }).kind).toBe('client');
    expect(classifyUpstreamError({ code: -32601, message: 'the method trace_block does not exist' }).kind).toBe(
      'unsupported',
    );
  });

  it('"no such block" is the node lagging only for a height the network has; beyond every head it is the client\'s', () => {
    const at = (number: number) => ({ kind: 'number', number }) as const;
    for (const message of ['header not found', 'unknown block', 'block not found', 'request beyond head block']) {
      const e = { code: -32000, message };
      // this node is at 100, another at 130: 120 exists, this node lags
      expect(classifyUpstreamError(e, { requested: at(120), head: 100, bestHead: 130 }).kind, message).toBe(
        'unavailable',
      );
      // beyond the best head: every node would say the same; never held against a node
      expect(classifyUpstreamError(e, { requested: at(131), head: 100, bestHead: 130 }).kind, message).toBe('client');
      expect(classifyUpstreamError(e, { requested: at(0xffffffff), head: 130, bestHead: 130 }).kind).toBe('client');
      // no head known at all: nothing says the block exists
      expect(classifyUpstreamError(e, { requested: at(5) }).kind).toBe('client');
      // below its own head it says it has not got it: another node may answer, no breaker
      expect(classifyUpstreamError(e, { requested: at(90), head: 100, bestHead: 130 }).kind).toBe('missing');
      // a tag or a hash: the node's trouble only when it is behind the best head
      expect(classifyUpstreamError(e, { requested: { kind: 'hash' }, head: 100, bestHead: 130 }).kind).toBe(
        'unavailable',
      );
      // at the best head: another node may have it (a block just announced), not held against this one
      expect(classifyUpstreamError(e, { requested: { kind: 'hash' }, head: 130, bestHead: 130 }).kind).toBe('missing');
      expect(classifyUpstreamError(e, { requested: { kind: 'tag', tag: 'safe' }, head: 130, bestHead: 130 }).kind).toBe(
        'missing',
      );
      expect(classifyUpstreamError(e).kind).toBe('missing');
    }
  });

  it('"no such state" (pruned, missing trie node) fails over without counting against the node', () => {
    for (const message of [
      'missing trie node 5e3c… (path )',
      'required historical state unavailable (reexec=128)',
      'state is not available',
    ]) {
      expect(classifyUpstreamError({ code: -32000, message }).kind, message).toBe('missing');
    }
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
    expect(fast.score(0)).toBeLessThan(slow.score(0));
    expect(fast.p95Ms()).toBe(40);
    const steady = createUpstreamStats();
    const failing = createUpstreamStats();
    for (let i = 0; i < 100; i++) {
      steady.record(2, true);
      failing.record(2, i % 2 === 0);
    }
    expect(failing.score(0)).toBeGreaterThan(steady.score(0) * 5);
    expect(fast.score(10)).toBeGreaterThan(slow.score(0));
  });

  it('hears outcomes without latencies (probes), and forgets errors when the upstream recovered', () => {
    const s = createUpstreamStats();
    for (let i = 0; i < 30; i++) s.recordOutcome(false);
    expect(s.errorRate()).toBeGreaterThan(0.7);
    expect(s.ewmaMs()).toBeUndefined();
    expect(s.samples()).toBe(0);
    for (let i = 0; i < 10; i++) s.recordOutcome(true);
    const after = s.errorRate();
    expect(after).toBeLessThan(0.6);
    s.forgiveErrors();
    expect(s.errorRate()).toBe(0);
  });
});

describe('scoreClassOf', () => {
  it('classes methods by their table row: writes, heavy reads by credit cost, light reads', () => {
    expect(scoreClassOf(ethMethods.eth_getLogs)).toBe('heavy');
    expect(scoreClassOf(ethMethods.eth_getBlockReceipts)).toBe('heavy');
    expect(scoreClassOf(ethMethods.eth_estimateGas)).toBe('heavy');
    expect(scoreClassOf(ethMethods.eth_blockNumber)).toBe('light');
    expect(scoreClassOf(ethMethods.eth_call)).toBe('light');
    expect(scoreClassOf(ethMethods.eth_getProof)).toBe('light');
    expect(scoreClassOf(ethMethods.eth_sendRawTransaction)).toBe('write');
    expect(scoreClassOf(starknetMethods.getEvents)).toBe('heavy');
    expect(scoreClassOf(starknetMethods.traceBlockTransactions)).toBe('heavy');
    expect(scoreClassOf(starknetMethods.getNonce)).toBe('light');
    expect(scoreClassOf(starknetMethods.addInvokeTransaction)).toBe('write');
  });
});

describe('createLearnedCapabilities', () => {
  it('remembers a missing method for its time to live, and forgets everything on a recovery', () => {
    const caps = createLearnedCapabilities(1_000);
    caps.learnLacks('trace_block', 0);
    caps.learnLacks('debug_traceCall', 500);
    expect(caps.lacks('trace_block', 999)).toBe(true);
    expect(caps.lacked(999)).toEqual(['debug_traceCall', 'trace_block']);
    // expired: asked again
    expect(caps.lacks('trace_block', 1_000)).toBe(false);
    expect(caps.lacked(1_000)).toEqual(['debug_traceCall']);
    caps.forget();
    expect(caps.lacks('debug_traceCall', 1_000)).toBe(false);
  });
});

describe('headOfAnswer', () => {
  it('reads the head that an answer shows a client, raw text included', () => {
    expect(headOfAnswer('eth_blockNumber', [], '0x1f')).toBe(31);
    expect(headOfAnswer('eth_blockNumber', [], new RawJson('"0x20"'))).toBe(32);
    const block = new RawJson(
      '{"hash":"0x11","number":"0x21","transactions":[{"blockNumber":"0x99","number":"0x5"}],"timestamp":"0x1"}',
    );
    expect(headOfAnswer('eth_getBlockByNumber', ['latest', false], block)).toBe(33);
    expect(headOfAnswer('eth_getBlockByNumber', ['latest', false], { number: '0x22' })).toBe(34);
    // a block asked by number shows no head; other methods neither
    expect(headOfAnswer('eth_getBlockByNumber', ['0x5', false], { number: '0x5' })).toBeUndefined();
    expect(headOfAnswer('eth_getBalance', ['0x1', 'latest'], '0x5')).toBeUndefined();
    expect(headOfAnswer('starknet_blockNumber', {}, 12)).toBe(12);
    expect(headOfAnswer('starknet_blockHashAndNumber', {}, { block_hash: '0x1', block_number: 13 })).toBe(13);
    expect(headOfAnswer('eth_blockNumber', [], null)).toBeUndefined();
  });
});

describe('requestedBlock', () => {
  it('finds the block a call names from the method table (numbers, tags, EIP-1898, log filters, Starknet block_id)', () => {
    const addr = `0x${'ab'.repeat(20)}`;
    expect(requestedBlock('eth_getBalance', [addr, '0xffffffff'])).toEqual({ kind: 'number', number: 0xffffffff });
    expect(requestedBlock('eth_getStorageAt', [addr, '0x0', 'latest'])).toEqual({ kind: 'tag', tag: 'latest' });
    expect(requestedBlock('eth_call', [{ to: addr }, { blockNumber: '0x10' }])).toEqual({ kind: 'number', number: 16 });
    expect(requestedBlock('eth_call', [{ to: addr }, { blockHash: `0x${'11'.repeat(32)}` }])).toEqual({ kind: 'hash' });
    expect(requestedBlock('eth_getBlockByNumber', ['0x5', false])).toEqual({ kind: 'number', number: 5 });
    expect(requestedBlock('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x20' }])).toEqual({
      kind: 'number',
      number: 32,
    });
    expect(requestedBlock('eth_getLogs', [{ fromBlock: '0x1' }])).toEqual({ kind: 'tag', tag: 'latest' });
    expect(requestedBlock('eth_getLogs', [{ blockHash: `0x${'11'.repeat(32)}` }])).toEqual({ kind: 'hash' });
    // calls that name no block
    expect(requestedBlock('eth_chainId', [])).toBeUndefined();
    expect(requestedBlock('eth_getTransactionByHash', [`0x${'11'.repeat(32)}`])).toBeUndefined();
    expect(requestedBlock('starknet_getNonce', { block_id: { block_number: 7 }, contract_address: '0x1' })).toEqual({
      kind: 'number',
      number: 7,
    });
    expect(requestedBlock('starknet_call', { request: {}, block_id: 'latest' })).toEqual({
      kind: 'tag',
      tag: 'latest',
    });
  });
});
