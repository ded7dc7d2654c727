import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClientGoneError } from '../../../errors/ClientGoneError.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { UpstreamTransportError } from '../../../upstream/UpstreamTransportError.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(2);
});
afterEach(() => rig.reset());
afterAll(async () => {
  await rig?.close();
});

describe('send: one request to one upstream', () => {
  it('goes to the member it is given and to no other, and records nothing', async () => {
    const { send, members, call } = rig.parts();
    const before = [rig.faults[0]!.hits('eth_chainId'), rig.faults[1]!.hits('eth_chainId')];
    const answer = await send(members[1]!, call('eth_chainId', [], ethMethods.eth_chainId), undefined);
    expect(answer).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: '0x7a69' });
    expect([rig.faults[0]!.hits('eth_chainId') - before[0]!, rig.faults[1]!.hits('eth_chainId') - before[1]!]).toEqual([
      0, 1,
    ]);
    expect(members[1]!.stats.light.samples()).toBe(0);
    expect(members[1]!.breaker.state()).toBe('closed');
  });

  it("abandons a call after the method's own timeout as a timeout; a caller that left is not one", async () => {
    const { send, members, call } = rig.parts({ methodTimeoutsMs: { eth_chainId: 150 } });
    rig.faults[0]!.script(() => ({ kind: 'slow', ms: 1_000 }));
    const started = performance.now();
    const err = await send(members[0]!, call('eth_chainId', [], ethMethods.eth_chainId), undefined).catch((e) => e);
    expect(performance.now() - started).toBeLessThan(800);
    expect(err).toBeInstanceOf(UpstreamTransportError);
    expect(err).toMatchObject({ failure: 'timeout', message: 'upstream did not answer eth_chainId within 150 ms' });
    // the client went away before the method's timeout: not the upstream's timeout
    const gone = new AbortController();
    setTimeout(() => gone.abort(), 50);
    const left = await send(members[0]!, call('eth_chainId', [], ethMethods.eth_chainId), gone.signal).catch((e) => e);
    expect(left).toBeInstanceOf(ClientGoneError);
  });
});
