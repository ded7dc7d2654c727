import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamRateLimit } from '../../../config/types.js';
import { GatewayError } from '../../../errors/GatewayError.js';
import { ethMethods } from '../../../families/eth/ethMethods.js';
import { type LayerRig, startLayerRig } from '../../testing/startLayerRig.js';
import { createReadRetry } from '../retry/createReadRetry.js';
import { createWriteRoute } from '../retry/createWriteRoute.js';
import { createUpstreamBudget } from './createUpstreamBudget.js';

let rig: LayerRig;
beforeAll(async () => {
  rig = await startLayerRig(2);
});
afterEach(() => rig.reset());
afterAll(async () => {
  await rig?.close();
});
const addr = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
/** When each request was sent to each upstream (epoch ms), filled by the parts' `onSend`. */
let times: number[][] = [[], []];
const onSend = (name: string, at: number) => times[name === 'one' ? 0 : 1]!.push(at);
function recordTimes() {
  times = [[], []];
  return times;
}
/** The most requests in one clock second. */
const perSecondMax = (times: readonly number[]) => {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / 1000), (counts.get(Math.floor(t / 1000)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
};

function route(rateLimits: Readonly<Record<string, UpstreamRateLimit>>) {
  const parts = rig.parts({ retries: 0, breakerFailures: 50 }, { rateLimits, onSend });
  return { ...parts, read: createReadRetry({ network: 'chain', chainId: undefined, ...parts, now: Date.now }) };
}

describe('budget: never more than an upstream allows', () => {
  it('an upstream at its budget is skipped: the rest goes to the next upstream at once', async () => {
    const { read, call, budgetCounts, members } = route({ one: { unit: 'requests', perSecond: 5, autoTune: true } });
    const times = recordTimes();
    const started = Date.now();
    const outs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        read(call('eth_getBalance', [addr(i), 'latest'], ethMethods.eth_getBalance)),
      ),
    );
    expect(Date.now() - started).toBeLessThan(900);
    expect(outs.every((o) => o.ok)).toBe(true);
    expect(perSecondMax(times[0]!)).toBeLessThanOrEqual(5);
    expect(times[0]!.length + times[1]!.length).toBe(20);
    expect(budgetCounts.waits).toBe(0);
    expect(members[0]!.budget!.health(Date.now()).spent).toBeGreaterThan(0);
  });

  it('when every upstream is at its budget, calls wait within their deadline; then -32005 with Retry-After', async () => {
    const limit = { unit: 'requests' as const, perSecond: 4, autoTune: true };
    const { read, call, budgetCounts } = route({ one: limit, two: limit });
    const times = recordTimes();
    const deadline = Date.now() + 10_000;
    const outs = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        read(call('eth_getBalance', [addr(100 + i), 'latest'], ethMethods.eth_getBalance, { deadline })),
      ),
    );
    expect(outs.every((o) => o.ok)).toBe(true);
    expect(budgetCounts.waits).toBeGreaterThan(0);
    for (const t of times) expect(perSecondMax(t)).toBeLessThanOrEqual(4);
    // a deadline too near to wait for a budget: -32005, nothing sent over the budget
    const sent = times[0]!.length + times[1]!.length;
    const soon = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        read(
          call('eth_getBalance', [addr(200 + i), 'latest'], ethMethods.eth_getBalance, { deadline: Date.now() + 150 }),
        ),
      ),
    );
    const refused = soon.filter((o) => !o.ok);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const o of refused) {
      if (o.ok) continue;
      expect(o.error).toBeInstanceOf(GatewayError);
      expect(o.error).toMatchObject({ code: -32005, kind: 'UPSTREAM_BUDGET', data: { reason: 'upstream-budget' } });
      expect((o.error as GatewayError).retryAfterSeconds).toBeGreaterThan(0);
      expect(o.partnersMayTry).toBe(true);
    }
    expect(times[0]!.length + times[1]!.length - sent).toBe(12 - refused.length);
    for (const t of times) expect(perSecondMax(t)).toBeLessThanOrEqual(4);
  });

  it("credits: each request counts its method's cost, never past the rate", async () => {
    // 200 credits a second: two eth_getBalance (80 each) fit, a third would not
    const { read, call } = route({ one: { unit: 'credits', perSecond: 200, autoTune: true } });
    const times = recordTimes();
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        read(call('eth_getBalance', [addr(300 + i), 'latest'], ethMethods.eth_getBalance)),
      ),
    );
    expect(perSecondMax(times[0]!)).toBe(2);
    expect(times[1]!.length).toBe(4);
  });

  it('writes wait for a budget too, and are not sent over it', async () => {
    const limit = { unit: 'requests' as const, perSecond: 1, autoTune: true };
    const parts = rig.parts({}, { rateLimits: { one: limit, two: limit }, onSend });
    const write = createWriteRoute('chain', undefined, parts.selector, parts.breaker, parts.budget);
    const times = recordTimes();
    const tx = ['0x02f86b'];
    const answers = await Promise.all(
      [0, 1, 2].map(() =>
        write(
          parts.call('eth_sendRawTransaction', tx, ethMethods.eth_sendRawTransaction, { deadline: Date.now() + 5_000 }),
        ).catch((e) => e),
      ),
    );
    // anvil's answer (the transaction does not decode) for each: all three were sent, within the budgets
    for (const a of answers) expect(a).toMatchObject({ code: expect.any(Number) });
    for (const t of times) expect(perSecondMax(t)).toBeLessThanOrEqual(1);
    expect(times[0]!.length + times[1]!.length).toBe(3);
  });
});

describe('auto-tune', () => {
  it("a provider's 429 tightens the budget (once a second at most, down to a tenth), then it relaxes slowly", async () => {
    let t = 1_000_000;
    const { breaker, members, call } = rig.parts(
      { breakerFailures: 50 },
      {
        now: () => t,
        rateLimits: { one: { unit: 'requests', perSecond: 10, autoTune: true } },
      },
    );
    const m = members[0]!;
    rig.faults[0]!.script(() => ({ kind: '429', retryAfterS: 1 }));
    await breaker.attempt(m, call('eth_chainId', [], ethMethods.eth_chainId), undefined);
    expect(m.budget!.health(t)).toMatchObject({ configured: 10, effective: 8, throttled: 1 });
    // the other answers of calls already sent count once
    await breaker.attempt(m, call('eth_chainId', [], ethMethods.eth_chainId), undefined);
    expect(m.budget!.health(t)).toMatchObject({ effective: 8, throttled: 2 });
    // a JSON-RPC wording of the same (Infura's -32005) counts as a 429 too
    t += 1_000;
    rig.faults[0]!.script(() => ({
      kind: 'rpc-error',
      code: -32005,
      message: 'daily request count exceeded, request rate limited',
    }));
    await breaker.attempt(m, call('eth_chainId', [], ethMethods.eth_chainId), undefined);
    expect(m.budget!.health(t).effective).toBe(6.4);
    // relaxing: 5 % of the configured rate every 10 s without a 429
    expect(m.budget!.rate(t + 9_999)).toBe(6.4);
    expect(m.budget!.rate(t + 10_000)).toBeCloseTo(6.9);
    expect(m.budget!.rate(t + 80_000)).toBe(10);
    // the floor
    const b = createUpstreamBudget({ unit: 'requests', perSecond: 10, autoTune: true }, 0);
    for (let i = 0; i < 30; i++) b.throttled(i * 1_000);
    expect(b.rate(30_000)).toBe(1);
    // without autoTune a 429 is counted, the rate stays
    const fixed = createUpstreamBudget({ unit: 'requests', perSecond: 10, autoTune: false }, 0);
    fixed.throttled(0);
    expect(fixed.health(0)).toMatchObject({ effective: 10, throttled: 1 });
  });
});
