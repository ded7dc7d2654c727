import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcProvider } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../config/validateConfig.js';
import type { EmbeddedProcess } from '../../../embedded/startAnvil.js';
import { startStarknetDevchain } from '../../../embedded/startStarknetDevchain.js';
import { type RunningGateway, startGateway } from '../../../main.js';
import {
  createEventsRangeLimitedUpstream,
  type EventsRangeLimitedUpstream,
} from '../../../test-support/createEventsRangeLimitedUpstream.js';
import { postJson } from '../../../test-support/startTestGateway.js';
import { createTestKey, type TestKey } from '../../../test-support/testKeys.js';

// The embedded Starknet dev chain with mint events spread over ~25 blocks, behind providers that
// refuse starknet_getEvents wider than a few blocks: the gateway walks sub-ranges with its own
// continuation token; every page sequence gives exactly the events the unlimited dev chain gives.
const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

let dir: string;
let devchain: EmbeddedProcess;
let gw: RunningGateway;
let limited: EventsRangeLimitedUpstream;
let learning: EventsRangeLimitedUpstream;
let slow: EventsRangeLimitedUpstream;
let narrow: TestKey;
type Page = { events: { block_number: number; transaction_hash: string }[]; continuation_token?: string };
type Answer = { result?: Page; error?: { code: number; message: string; data?: unknown } };

const url = (network: string, key = gw.devKey!.key) => `${gw.networks[network]!.http}/v3/${key}`;
const call = async (target: string, method: string, params: unknown) =>
  (await postJson(target, { jsonrpc: '2.0', id: 1, method, params })).json as any;
const getEvents = async (network: string, filter: Record<string, unknown>, key?: string): Promise<Answer> =>
  call(url(network, key), 'starknet_getEvents', { filter });
const direct = async (filter: Record<string, unknown>): Promise<Page> => {
  const r = await call(devchain.http, 'starknet_getEvents', { filter });
  expect(r.error).toBeUndefined();
  return r.result;
};

/** Every event of `filter` through `network`, page by page, and the pages' sizes. */
const pageAll = async (network: string, filter: Record<string, unknown>) => {
  const events: Page['events'] = [];
  const sizes: number[] = [];
  let token: string | undefined;
  for (let i = 0; i < 500; i++) {
    const r = await getEvents(network, token === undefined ? filter : { ...filter, continuation_token: token });
    expect(r.error).toBeUndefined();
    events.push(...r.result!.events);
    sizes.push(r.result!.events.length);
    token = r.result!.continuation_token;
    if (token === undefined) return { events, sizes };
  }
  throw new Error('no end of pages');
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodegate-events-split-'));
  devchain = await startStarknetDevchain({ dataDir: join(dir, 'chain') });
  const [account] = (await call(devchain.http, 'devnet_getPredeployedAccounts', {})).result as { address: string }[];
  // mints (a Transfer event each, in its own block), two empty blocks after every third
  for (let i = 0; i < 12; i++) {
    const r = await call(devchain.http, 'devnet_mint', { address: account!.address, amount: 1000 + i, unit: 'FRI' });
    expect(r.error).toBeUndefined();
    if (i % 3 === 0) for (let j = 0; j < 2; j++) await call(devchain.http, 'devnet_createBlock', {});
  }
  limited = await createEventsRangeLimitedUpstream(devchain.http, 3);
  learning = await createEventsRangeLimitedUpstream(devchain.http, 4);
  slow = await createEventsRangeLimitedUpstream(devchain.http, 8, { hangMs: 3_000 });
  const stk = (name: string, upstream: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name,
    family: 'starknet',
    pathPrefix: `/${name}`,
    maxEventsChunkSize: 1024,
    upstreams: [upstream],
    policy: { hedge: false, exploreShare: 0 },
    ...extra,
  });
  gw = await startGateway(
    validateConfig({
      listen: '127.0.0.1:0',
      dataDir: join(dir, 'gw'),
      devKey: true,
      cache: { enabled: false },
      plans: { narrow: { creditsPerSecond: 1_000_000, creditsPerDay: 1_000_000_000, maxLogsBlockRange: 6 } },
      networks: [
        stk('stk-limited', { name: 'limited', http: limited.url, getLogsMaxBlockRange: 3 }),
        stk('stk-learning', { name: 'learning', http: learning.url }),
        {
          ...stk('stk-slow', { name: 'slow', http: slow.url }),
          policy: { hedge: false, exploreShare: 0, methodTimeoutsMs: { starknet_getEvents: 600 } },
        },
        stk('stk-capped', { name: 'limited', http: limited.url, getLogsMaxBlockRange: 3 }, { maxLogsBlockRange: 6 }),
      ],
    }),
  );
  narrow = await createTestKey(gw, { name: 'narrow', plan: 'narrow' });
}, 180_000);

afterAll(async () => {
  await gw?.close();
  await limited?.close();
  await learning?.close();
  await slow?.close();
  await devchain?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('starknet_getEvents over a range wider than the upstream takes', () => {
  const all = { from_block: { block_number: 0 }, to_block: 'latest' };

  for (const chunk of [1, 2, 5, 1000]) {
    it(`chunk_size ${chunk}: pages give exactly the dev chain's events, in order, none twice`, async () => {
      const whole = (await direct({ ...all, chunk_size: 1000 })).events;
      expect(whole.length).toBeGreaterThanOrEqual(12);
      const before = limited.answered.length;
      const { events, sizes } = await pageAll('stk-limited', { ...all, chunk_size: chunk });
      expect(events).toEqual(whole);
      for (const s of sizes) expect(s).toBeLessThanOrEqual(chunk);
      // pages are filled across sub-range boundaries (all but the last full)
      if (chunk <= 2) for (const s of sizes.slice(0, -1)) expect(s).toBe(chunk);
      // every request the node got was within its limit, and the node refused none
      const asked = limited.answered.slice(before);
      expect(asked.length).toBeGreaterThan(1);
      for (const a of asked) expect(a.to - a.from + 1).toBeLessThanOrEqual(3);
    });
  }

  it('a filtered walk (address, keys) equals the dev chain, through starknet.js', async () => {
    const provider = new RpcProvider({ nodeUrl: url('stk-limited') });
    const filter = { from_block: { block_number: 0 }, to_block: 'latest' as const, address: STRK, chunk_size: 2 };
    const seen: unknown[] = [];
    let token: string | undefined;
    for (let i = 0; i < 200; i++) {
      const page = await provider.getEvents({
        ...filter,
        ...(token === undefined ? {} : { continuation_token: token }),
      });
      seen.push(...page.events);
      token = page.continuation_token;
      if (token === undefined) break;
    }
    const expected = (await direct({ ...filter, chunk_size: 1000 })).events;
    expect(expected.length).toBeGreaterThan(10);
    expect(seen).toEqual(expected);
  });

  it('a node that refuses the range with no configured limit: bisected, it learns, the walk equals the dev chain', async () => {
    const refusedBefore = learning.refused();
    const { events } = await pageAll('stk-learning', { ...all, chunk_size: 4 });
    expect(events).toEqual((await direct({ ...all, chunk_size: 1000 })).events);
    expect(learning.refused()).toBeGreaterThan(refusedBefore);
    for (const a of learning.answered) expect(a.to - a.from + 1).toBeLessThanOrEqual(4);
  });

  it('a node that times out on wide ranges: halved (at most 3 timeouts in a row), the walk equals the dev chain', async () => {
    const { events, sizes } = await pageAll('stk-slow', { ...all, chunk_size: 3 });
    expect(events).toEqual((await direct({ ...all, chunk_size: 1000 })).events);
    expect(slow.refused()).toBeGreaterThan(0);
    expect(slow.refused()).toBeLessThanOrEqual(3);
    for (const s of sizes.slice(0, -1)) expect(s).toBe(3);
    for (const a of slow.answered) expect(a.to - a.from + 1).toBeLessThanOrEqual(8);
  }, 60_000);

  it('a token is refused with 33 when forged, tampered with or used with another filter', async () => {
    const filter = { ...all, chunk_size: 2 };
    const first = await getEvents('stk-limited', filter);
    const token = first.result!.continuation_token!;
    expect(token.startsWith('ng1.')).toBe(true);
    const body = JSON.parse(Buffer.from(token.slice(4), 'base64url').toString());
    const forge = (o: Record<string, unknown>) =>
      `ng1.${Buffer.from(JSON.stringify({ ...body, ...o })).toString('base64url')}`;
    const bad: [string, Record<string, unknown>][] = [
      ['garbage', { ...filter, continuation_token: 'ng1.!!!' }],
      ['not JSON', { ...filter, continuation_token: `ng1.${Buffer.from('{{').toString('base64url')}` }],
      ['too long', { ...filter, continuation_token: `ng1.${'A'.repeat(5000)}` }],
      ['another filter', { ...filter, address: STRK, continuation_token: token }],
      ['another range', { ...filter, from_block: { block_number: 1 }, continuation_token: token }],
      ['position before the range', { ...filter, continuation_token: forge({ a: body.f - 1 }) }],
      ['end past the range', { ...filter, continuation_token: forge({ e: body.t + 5 }) }],
      ['another digest', { ...filter, continuation_token: forge({ d: 'x'.repeat(22) }) }],
      ['an extra field', { ...filter, continuation_token: forge({ k: 'other-key' }) }],
    ];
    for (const [why, f] of bad) {
      const r = await getEvents('stk-limited', f);
      expect(r.error, why).toEqual({ code: 33, message: 'The supplied continuation token is invalid or unknown' });
    }
    // the real one still works
    expect((await getEvents('stk-limited', { ...filter, continuation_token: token })).error).toBeUndefined();
  });

  it("the client's maxLogsBlockRange is refused before any upstream call, -32005 with the range to retry", async () => {
    const before = limited.answered.length + limited.refused();
    const r = await getEvents('stk-capped', {
      from_block: { block_number: 0 },
      to_block: { block_number: 20 },
      chunk_size: 5,
    });
    expect(r.error?.code).toBe(-32005);
    expect(r.error?.data).toEqual({ from: 0, to: 5, limit: 6 });
    expect(r.error?.message).toMatch(/starknet_getEvents over 21 blocks, at most 6/);
    expect(limited.answered.length + limited.refused()).toBe(before);
    // within the cap: walked as usual
    const within = { from_block: { block_number: 2 }, to_block: { block_number: 7 }, chunk_size: 1 };
    const { events } = await pageAll('stk-capped', within);
    expect(events).toEqual((await direct({ ...within, chunk_size: 1000 })).events);
  });

  it("two keys: interleaved walks each get their own filter's events; a token past a key's plan cap is 33 for it", async () => {
    const a = { ...all, address: STRK, chunk_size: 2 };
    const b = { from_block: { block_number: 3 }, to_block: { block_number: 8 }, chunk_size: 1 };
    const got = { a: [] as unknown[], b: [] as unknown[] };
    let ta: string | undefined;
    let tb: string | undefined;
    let firstA: string | undefined;
    let doneA = false;
    let doneB = false;
    for (let i = 0; i < 100 && !(doneA && doneB); i++) {
      if (!doneA) {
        const ra = await getEvents('stk-limited', ta === undefined ? a : { ...a, continuation_token: ta });
        expect(ra.error).toBeUndefined();
        got.a.push(...ra.result!.events);
        ta = ra.result!.continuation_token;
        firstA ??= ta;
        doneA = ta === undefined;
      }
      if (!doneB) {
        const rb = await getEvents('stk-limited', tb === undefined ? b : { ...b, continuation_token: tb }, narrow.key);
        expect(rb.error).toBeUndefined();
        got.b.push(...rb.result!.events);
        tb = rb.result!.continuation_token;
        doneB = tb === undefined;
      }
    }
    expect(firstA).toBeDefined();
    expect(got.a).toEqual((await direct({ ...a, chunk_size: 1000 })).events);
    expect(got.b).toEqual((await direct({ ...b, chunk_size: 1000 })).events);
    // the dev key's token over the whole chain: beyond the narrow plan's 6 blocks
    const r = await getEvents('stk-limited', { ...a, chunk_size: 2, continuation_token: firstA }, narrow.key);
    expect(r.error?.code).toBe(33);
    // and the plan's cap refuses the wide range itself before any upstream call
    expect((await getEvents('stk-limited', { ...all, chunk_size: 2 }, narrow.key)).error?.code).toBe(-32005);
  });

  it('a range within the limit goes as it is (the node answers, its own token passes through)', async () => {
    const f = { from_block: { block_number: 1 }, to_block: { block_number: 3 }, chunk_size: 1 };
    const r = await getEvents('stk-limited', f);
    expect(r.result).toEqual(await direct(f));
  });
});
