import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';
import { createWriteRoute } from './createWriteRoute.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(2);
});
afterEach(() => rig.reset());
afterAll(async () => {
  await rig?.close();
});
// a raw transaction anvil refuses to decode: an answer, never a retry
const tx = '0x02f86b';

describe('write route: one upstream, elsewhere only when surely not delivered', () => {
  it('a write that may have reached a node (a reset connection) is not sent to another', async () => {
    const { selector, breaker, budget, call } = rig.parts();
    const write = createWriteRoute('chain', undefined, selector, breaker, budget);
    rig.faults[0]!.script(() => ({ kind: 'reset' }));
    const before = rig.faults[1]!.hits();
    const c = call('eth_sendRawTransaction', [tx], ethMethods.eth_sendRawTransaction);
    await expect(write(c)).rejects.toMatchObject({ kind: 'UPSTREAM_UNAVAILABLE' });
    expect(rig.faults[1]!.hits()).toBe(before);
    expect(c.attempts).toBe(1);
  });

  it("a node's JSON-RPC answer to a write is final; a node that lacks the method passes it on", async () => {
    const { selector, breaker, budget, call } = rig.parts();
    const write = createWriteRoute('chain', undefined, selector, breaker, budget);
    rig.faults[0]!.script(() => ({ kind: 'rpc-error', code: -32000, message: 'nonce too low' }));
    await expect(write(call('eth_sendRawTransaction', [tx], ethMethods.eth_sendRawTransaction))).rejects.toMatchObject({
      code: -32000,
      message: 'nonce too low',
    });
    rig.faults[0]!.script(() => ({ kind: 'rpc-error', code: -32601, message: 'method not found' }));
    rig.faults[1]!.script(() => ({ kind: 'rpc-error', code: -32000, message: 'already known' }));
    const c = call('eth_sendRawTransaction', [tx], ethMethods.eth_sendRawTransaction);
    await expect(write(c)).rejects.toMatchObject({ message: 'already known' });
    expect(c.attempts).toBe(2);
  });
});
