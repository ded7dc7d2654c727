import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';
import { createReadRetry } from '../retry/createReadRetry.js';
import { createPartnerFailover } from './createPartnerFailover.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(2, 1);
});
afterEach(() => rig.reset());
afterAll(async () => {
  await rig?.close();
});
// a lookup the method table marks forwardable (partners answer only those)
const hash = `0x${'ab'.repeat(32)}`;
const partner = () => rig.faults[2]!;

function forward() {
  const parts = rig.parts({ retries: 0, breakerFailures: 50 });
  const route = createReadRetry({ network: 'chain', chainId: undefined, ...parts, now: Date.now });
  return { ...parts, forward: createPartnerFailover(parts.partners, { network: 'chain', ...parts })(route) };
}

describe('partners: when every primary failed', () => {
  it('a forwardable read of a call that may go to partners is answered by one, and says so', async () => {
    const { forward: fwd, call, failovers } = forward();
    rig.faults[0]!.script(() => ({ kind: 'html', status: 502 }));
    rig.faults[1]!.script(() => ({ kind: 'reset' }));
    const c = call('eth_getTransactionByHash', [hash], ethMethods.eth_getTransactionByHash, { partners: true });
    expect(await fwd(c)).toEqual({ result: null, upstream: 'p1', failover: 'partner', attempts: 3 });
    expect(failovers.partner).toBe(1);
    expect(c.attempts).toBe(3);
  });

  it("without the key's failover protection the partner is never asked", async () => {
    const { forward: fwd, call } = forward();
    rig.faults[0]!.script(() => ({ kind: 'html', status: 502 }));
    rig.faults[1]!.script(() => ({ kind: 'html', status: 502 }));
    const before = partner().hits();
    const err = await fwd(call('eth_getTransactionByHash', [hash], ethMethods.eth_getTransactionByHash)).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ kind: 'UPSTREAM_UNAVAILABLE' });
    expect(partner().hits()).toBe(before);
  });

  it('not when a primary answered that it lacks the data (a partner is no archive of last resort)', async () => {
    const { forward: fwd, call } = forward();
    rig.faults[0]!.script(() => ({ kind: 'rpc-error', code: -32000, message: 'missing trie node 00' }));
    rig.faults[1]!.script(() => ({ kind: 'html', status: 502 }));
    const before = partner().hits();
    const c = call('eth_getTransactionByHash', [hash], ethMethods.eth_getTransactionByHash, { partners: true });
    await expect(fwd(c)).rejects.toMatchObject({ kind: 'UPSTREAM_UNAVAILABLE' });
    expect(partner().hits()).toBe(before);
  });
});
