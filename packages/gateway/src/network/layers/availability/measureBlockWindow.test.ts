import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedProcess, startAnvil } from '../../../embedded/startAnvil.js';
import { createFaultUpstream, type FaultUpstream } from '../../../test-support/createFaultUpstream.js';
import { createPrunedUpstream, type PrunedUpstream } from '../../../test-support/createPrunedUpstream.js';
import { createHttpUpstream, type HttpUpstream } from '../../../upstream/createHttpUpstream.js';
import { measureBlockWindow } from './measureBlockWindow.js';

// A real anvil 200 blocks high behind a pruned proxy (its latest 40 blocks), itself behind a
// fault upstream that can answer late.
let anvil: EmbeddedProcess;
let pruned: PrunedUpstream;
let front: FaultUpstream;
let upstream: HttpUpstream;

beforeAll(async () => {
  anvil = await startAnvil();
  await fetch(anvil.http, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0xc8'] }),
  });
  pruned = await createPrunedUpstream(anvil.http, 40);
  front = await createFaultUpstream(pruned.url);
  upstream = createHttpUpstream({ name: 'pruned', http: front.url, timeoutMs: 10_000 });
});
afterAll(async () => {
  await upstream?.close();
  await front?.close();
  await pruned?.close();
  await anvil?.stop();
});

describe('measureBlockWindow', () => {
  it('finds the oldest block by bisection in about log2(head) requests', async () => {
    const before = front.hits('eth_getTransactionCount');
    expect(await measureBlockWindow(upstream, 200, 2_000)).toEqual({ kind: 'recent', blocks: 38, source: 'probe' });
    const sent = front.hits('eth_getTransactionCount') - before;
    expect(sent).toBeGreaterThanOrEqual(8);
    expect(sent).toBeLessThanOrEqual(10);
  });

  it('an archive answers at block 1; a head below 2 or another error tells nothing', async () => {
    pruned.keep = 1_000;
    try {
      expect(await measureBlockWindow(upstream, 200, 2_000)).toEqual({ kind: 'archive', source: 'probe' });
    } finally {
      pruned.keep = 40;
    }
    expect(await measureBlockWindow(upstream, 1, 2_000)).toEqual({ kind: 'unknown' });
    front.script(() => ({ kind: 'rpc-error', code: -32000, message: 'something else' }));
    try {
      expect(await measureBlockWindow(upstream, 200, 2_000)).toEqual({ kind: 'unknown' });
    } finally {
      front.script(() => ({ kind: 'pass' }));
    }
  });

  it('bounded as a whole: a node too slow for the search stays unknown within 3 probe timeouts', async () => {
    front.script(() => ({ kind: 'slow', ms: 80 }));
    try {
      const started = performance.now();
      expect(await measureBlockWindow(upstream, 200, 150)).toEqual({ kind: 'unknown' });
      expect(performance.now() - started).toBeLessThan(450 + 300);
    } finally {
      front.script(() => ({ kind: 'pass' }));
    }
  });
});
