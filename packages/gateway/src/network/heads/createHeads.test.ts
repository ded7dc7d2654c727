import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../../families/eth/ethMethods.js';
import { RawJson } from '../../jsonrpc/RawJson.js';
import { type LayerRig, startLayerRig } from '../testing/startLayerRig.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(2);
});
afterAll(async () => {
  await rig?.close();
});

describe('heads: the head a client saw never goes backwards', () => {
  it('lags follow the best live head; an open upstream does not set it', () => {
    const { heads, members } = rig.parts({ breakerFailures: 1 });
    const [one, two] = members;
    heads.note(one!, 100);
    heads.note(two!, 97);
    expect(heads.best()).toBe(100);
    expect([one!.lag, two!.lag]).toEqual([0, 3]);
    one!.breaker.trip();
    heads.updateLags();
    expect(heads.best()).toBe(97);
    expect(two!.lag).toBe(0);
  });

  it('an answer below the served head is held back; settled, it shows the served head instead', async () => {
    const { heads, members, call, send } = rig.parts();
    const [one, two] = members;
    const c = call('eth_blockNumber', [], ethMethods.eth_blockNumber);
    const answer = await send(one!, c, undefined);
    const real = Number.parseInt(String((answer as { result: string }).result), 16);
    expect(heads.behind(c, one!, `0x${(real + 5).toString(16)}`)).toBeUndefined();
    expect(heads.served()).toBe(real + 5);
    expect(heads.behind(c, two!, `0x${real.toString(16)}`)).toBe(real);
    // another upstream could be at the head: the client gets the served head, in the answer's shape
    expect(
      heads.settleBehind(c, { result: new RawJson(`"0x${real.toString(16)}"`), by: two!, head: real }, false),
    ).toEqual({
      result: new RawJson(`"0x${(real + 5).toString(16)}"`),
      upstream: 'two',
    });
    // every upstream answered behind: the chain went back, and the served head with it
    expect(heads.settleBehind(c, { result: `0x${real.toString(16)}`, by: two!, head: real }, true).result).toBe(
      `0x${real.toString(16)}`,
    );
    expect(heads.served()).toBe(real);
  });
});
