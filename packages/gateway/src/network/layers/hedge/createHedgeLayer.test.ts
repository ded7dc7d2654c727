import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(3);
});
afterEach(() => rig.reset());
afterAll(async () => {
  await rig?.close();
});

describe('hedge: a slow read also goes to the next upstream', () => {
  it("once the first is slower than its own p95, the second's answer wins and the first is abandoned", async () => {
    const { hedge, members, call } = rig.parts({ hedge: true });
    const [one, two] = members;
    // twenty fast answers give `one` a p95 of a few ms
    for (let i = 0; i < 20; i++)
      await hedge.attempt(one!, undefined, call('eth_chainId', [], ethMethods.eth_chainId), undefined);
    rig.faults[0]!.script(() => ({ kind: 'slow', ms: 2_000 }));
    const c = call('eth_chainId', [], ethMethods.eth_chainId);
    const started = performance.now();
    const r = await hedge.attempt(one!, two, c, undefined);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(r.by).toBe(two);
    expect(r.hedgedOn).toBe(two);
    expect(r).toMatchObject({ ok: true, answer: { result: '0x7a69' } });
    expect(c.attempts).toBe(2);
  });

  it('without a p95 yet (or with hedging off) a read goes to one upstream only', async () => {
    const off = rig.parts({ hedge: false });
    expect(off.hedge.backup(off.members, 0, new Set(), 'eth_chainId')).toBeUndefined();
    const { hedge, members, call } = rig.parts({ hedge: true });
    rig.faults[0]!.script(() => ({ kind: 'slow', ms: 200 }));
    const before = rig.faults[1]!.hits('eth_chainId');
    const r = await hedge.attempt(members[0]!, members[1], call('eth_chainId', [], ethMethods.eth_chainId), undefined);
    expect(r.by).toBe(members[0]);
    expect(r.hedgedOn).toBeUndefined();
    expect(rig.faults[1]!.hits('eth_chainId')).toBe(before);
  });

  it('the backup is never an upstream further behind, nor one with its breaker not closed', async () => {
    const { hedge, members, heads } = rig.parts({ hedge: true, breakerFailures: 1 });
    const [one, two, three] = members;
    heads.note(one!, 100);
    heads.note(two!, 97);
    heads.note(three!, 100);
    expect(two!.lag).toBe(3);
    expect(hedge.backup(members, 0, new Set(), 'eth_chainId')).toBe(three);
    three!.breaker.trip();
    expect(hedge.backup(members, 0, new Set(), 'eth_chainId')).toBeUndefined();
    // already tried in this round: not a backup either
    heads.note(two!, 100);
    expect(hedge.backup(members, 0, new Set([two!]), 'eth_chainId')).toBeUndefined();
    expect(hedge.backup(members, 0, new Set(), 'eth_chainId')).toBe(two);
    expect(one).toBeDefined();
  });
});
