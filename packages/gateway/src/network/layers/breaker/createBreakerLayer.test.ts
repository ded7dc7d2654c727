import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamRpcError } from '../../../errors/GatewayError.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(1);
});
afterEach(() => rig.reset());
afterAll(async () => {
  await rig?.close();
});
const addr = `0x${'ab'.repeat(20)}`;

describe('breaker: one attempt, accounted for', () => {
  it("a node's trouble counts against it until its breaker opens; an open breaker admits nothing until its trial", async () => {
    let t = 1_000_000;
    const { breaker, members, call } = rig.parts({ breakerFailures: 2, breakerOpenMs: 1_000 }, { now: () => t });
    const m = members[0]!;
    rig.faults[0]!.script(() => ({ kind: 'html', status: 502 }));
    const c = call('eth_chainId', [], ethMethods.eth_chainId);
    const first = await breaker.attempt(m, c, undefined);
    expect(first).toMatchObject({ ok: false, verdict: { kind: 'unavailable' } });
    expect(m.consecutiveFailures).toBe(1);
    expect(m.breaker.state()).toBe('closed');
    await breaker.attempt(m, c, undefined);
    expect(m.breaker.state()).toBe('open');
    expect(c.attempts).toBe(2);
    expect(breaker.admits(m)).toBe(false);
    // past its open time: one trial, which closes it when the node answers
    rig.reset();
    t += 1_000;
    expect(breaker.admits(m)).toBe(true);
    expect(breaker.admits(m)).toBe(false);
    expect(await breaker.attempt(m, c, undefined)).toMatchObject({ ok: true, answer: { result: '0x7a69' } });
    expect(m.breaker.state()).toBe('closed');
    expect(m.consecutiveFailures).toBe(0);
  });

  it("a -32601 is learned as a missing capability; a revert is the client's answer and counts for the node", async () => {
    const t = 1_000_000;
    const { breaker, members, call } = rig.parts({ capabilityTtlMs: 60_000 }, { now: () => t });
    const m = members[0]!;
    rig.faults[0]!.script((method) =>
      method === 'eth_getProof'
        ? { kind: 'rpc-error', code: -32601, message: 'the method eth_getProof does not exist/is not available' }
        : { kind: 'rpc-error', code: 3, message: 'execution reverted' },
    );
    const lacks = await breaker.attempt(
      m,
      call('eth_getProof', [addr, [], 'latest'], ethMethods.eth_getProof),
      undefined,
    );
    expect(lacks).toMatchObject({ ok: false, verdict: { kind: 'unsupported' } });
    expect(m.caps.lacked(t)).toEqual(['eth_getProof']);
    const ethCall = call('eth_call', [{ to: addr, data: '0x' }, 'latest'], ethMethods.eth_call);
    const samples = m.stats[ethCall.cls].samples();
    const reverted = await breaker.attempt(m, ethCall, undefined);
    expect(reverted).toMatchObject({ ok: false, verdict: { kind: 'client' } });
    expect((reverted as { err: unknown }).err).toBeInstanceOf(UpstreamRpcError);
    expect(m.consecutiveFailures).toBe(0);
    expect(m.stats[ethCall.cls].errorRate()).toBe(0);
    expect(m.stats[ethCall.cls].samples()).toBe(samples + 1);
  });
});
