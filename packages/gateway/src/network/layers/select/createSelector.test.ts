import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(3);
});
afterAll(async () => {
  await rig?.close();
});

describe('select: which upstreams a call may go to, best first', () => {
  it("ranks by the score of the call's class, and keeps the preferred upstream until another is clearly better", async () => {
    let t = 1_000_000;
    const { selector, members, call, breaker } = rig.parts({}, { now: () => t });
    const [one, two, three] = members;
    // real answers first: every class hears them
    for (const m of members) await breaker.attempt(m, call('eth_chainId', [], ethMethods.eth_chainId), undefined);
    // then enough samples that the first connections' latency is forgotten
    for (let i = 0; i < 80; i++) {
      one!.stats.light.record(10, true);
      two!.stats.light.record(80, true);
      three!.stats.light.record(9, true);
    }
    const light = call('eth_chainId', [], ethMethods.eth_chainId);
    // `three` is a little faster, but `one` (preferred) is within a third of it: it stays first
    expect(selector.route(light).map((m) => m.upstream.name)).toEqual(['one', 'three', 'two']);
    // `one` starts failing: far worse than `three`, which takes over once the ranking is 100 ms old
    for (let i = 0; i < 10; i++) one!.stats.light.record(10, false);
    expect(selector.route(light)[0]).toBe(one);
    t += 100;
    expect(selector.route(light)[0]).toBe(three);
    // heavy reads are ranked on their own scores: `two` is the fast one there
    for (let i = 0; i < 20; i++) two!.stats.heavy.record(5, true);
    expect(selector.route(call('eth_getLogs', [{}], ethMethods.eth_getLogs))[0]).toBe(two);
  });

  it('an upstream that lacks the method, or is on another chain, is never offered it', () => {
    const t = 1_000_000;
    const { selector, members } = rig.parts({ capabilityTtlMs: 60_000 }, { now: () => t });
    const [one, two, three] = members;
    one!.caps.learnLacks('eth_getProof', t);
    two!.wrongChain = true;
    expect(selector.takes(one!, 'eth_getProof')).toBe(false);
    expect(selector.takes(one!, 'eth_chainId')).toBe(true);
    expect(selector.takes(two!, 'eth_chainId')).toBe(false);
    expect(selector.allLack(members, 'eth_getProof')).toBe(false);
    three!.caps.learnLacks('eth_getProof', t);
    // the one on another chain does not count: every upstream on the chain lacks it
    expect(selector.allLack(members, 'eth_getProof')).toBe(true);
  });

  it('a share of reads explores another upstream first, never an open or lagging one', () => {
    let draw = 0;
    const draws = [0.01, 0.0];
    const { selector, members, call } = rig.parts(
      { exploreShare: 0.05, breakerFailures: 1 },
      { random: () => draws[draw++ % 2]! },
    );
    const [one, two, three] = members;
    const c = call('eth_chainId', [], ethMethods.eth_chainId);
    expect(selector.route(c)[0]).toBe(two);
    two!.breaker.trip();
    expect(selector.route(c)[0]).toBe(three);
    three!.lag = 2;
    expect(selector.route(c)[0]).toBe(one);
  });
});
