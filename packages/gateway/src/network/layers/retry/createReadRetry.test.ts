import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamRpcError } from '../../../errors/GatewayError.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import type { UpstreamPolicy } from '../../../config/types.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';
import { createReadRetry } from './createReadRetry.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(2);
});
afterEach(() => rig.reset());
afterAll(async () => {
  await rig?.close();
});
const addr = `0x${'ab'.repeat(20)}`;

function route(policy: Partial<UpstreamPolicy> = {}) {
  const parts = rig.parts({ breakerFailures: 50, ...policy });
  return { ...parts, route: createReadRetry({ network: 'chain', chainId: undefined, ...parts, now: Date.now }) };
}

describe('retry: reads fail over and are retried within the deadline', () => {
  it('fails over to the next upstream at once, and counts the failover', async () => {
    const { route: read, call, failovers } = route({ retries: 0 });
    rig.faults[0]!.script(() => ({ kind: 'html', status: 502 }));
    const c = call('eth_chainId', [], ethMethods.eth_chainId);
    const out = await read(c);
    expect(out).toMatchObject({ ok: true, forwarded: { result: '0x7a69', upstream: 'two' } });
    expect(c.attempts).toBe(2);
    expect(failovers.upstream).toBe(1);
  });

  it("when every upstream is in trouble, the round is repeated after the upstreams' Retry-After", async () => {
    const { route: read, call } = route({ retries: 2 });
    const slowDown = (_m: string, n: number) =>
      n === 1 ? { kind: '429' as const, retryAfterS: 1 } : { kind: 'pass' as const };
    rig.faults[0]!.script(slowDown);
    rig.faults[1]!.script(slowDown);
    const c = call('eth_gasPrice', [], ethMethods.eth_gasPrice);
    const started = performance.now();
    const out = await read(c);
    expect(out.ok).toBe(true);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(c.attempts).toBe(3);
  });

  it('no retry round that would end past the deadline; the outcome is the error for the client, partners allowed', async () => {
    const { route: read, call } = route({ retries: 3 });
    rig.faults[0]!.script(() => ({ kind: 'html', status: 502 }));
    rig.faults[1]!.script(() => ({ kind: 'html', status: 502 }));
    const c = call('eth_chainId', [], ethMethods.eth_chainId, { deadline: Date.now() + 120 });
    const out = await read(c);
    expect(c.attempts).toBe(2);
    expect(out).toMatchObject({ ok: false, partnersMayTry: true, error: { kind: 'UPSTREAM_UNAVAILABLE' } });
  });

  it("nodes that answer they lack the data: no retry round, the node's answer, and no partner", async () => {
    const { route: read, call } = route({ retries: 3 });
    const pruned = () => ({ kind: 'rpc-error' as const, code: -32000, message: 'missing trie node abc' });
    rig.faults[0]!.script(pruned);
    rig.faults[1]!.script(pruned);
    const c = call('eth_getBalance', [addr, '0x1'], ethMethods.eth_getBalance);
    const out = await read(c);
    expect(c.attempts).toBe(2);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.partnersMayTry).toBe(false);
    expect(out.error).toBeInstanceOf(UpstreamRpcError);
    expect(out.error.message).toBe('missing trie node abc');
  });

  it('a client error (a revert) comes back at once, from the first upstream', async () => {
    const { route: read, call } = route({ retries: 3 });
    rig.faults[0]!.script(() => ({ kind: 'rpc-error', code: 3, message: 'execution reverted' }));
    const c = call('eth_call', [{ to: addr, data: '0x' }, 'latest'], ethMethods.eth_call);
    await expect(read(c)).rejects.toMatchObject({ code: 3, message: 'execution reverted' });
    expect(c.attempts).toBe(1);
  });
});
