import { postJson } from '../test-support/startTestGateway.js';
import { canonicalParams } from './canonicalParams.js';

/** One query the readers send again and again. */
export interface Probe {
  readonly method: string;
  readonly params: unknown;
}

/** One answer a reader got through the gateway, with when its request started and ended (ms, `performance.now()`). */
export interface Answer {
  readonly probe: number;
  readonly t0: number;
  readonly t1: number;
  /** `result` or `error.code`, canonical JSON (object keys sorted, `canonicalParams`). */
  readonly answer: string;
  readonly cache: string | null;
}

/** What the readers saw, checked against the chain before and after the change. */
export interface ReorgCheck {
  readonly answers: readonly Answer[];
  /** When the change was made (its call's start and end). */
  readonly act: { readonly start: number; readonly end: number };
  /** Answers that are neither the chain's before nor after, or the old chain's for a request started after the change (plus grace). */
  readonly stale: readonly Answer[];
  /** How long after the change ended the last request started that got the old chain's answer, ms (undefined: none). */
  readonly lastOldAfterMs: number | undefined;
  /** How many probes the change altered (the check means something only when some did). */
  readonly changed: number;
  /** Answers from the cache before the change, and after it. */
  readonly hitsBefore: number;
  readonly hitsAfter: number;
}

/** The answer a JSON-RPC response body stands for: its result, or its error code. */
const answerOf = (body: { result?: unknown; error?: { code?: unknown } }) =>
  body.error !== undefined ? `error:${String(body.error.code)}` : canonicalParams(body.result ?? null);

/** Every probe asked once at `url` (the node itself, for the expected answers). */
export async function askAll(url: string, probes: readonly Probe[]): Promise<string[]> {
  return Promise.all(probes.map(async (p) => answerOf((await postJson(url, { jsonrpc: '2.0', id: 1, ...p })).json)));
}

/**
 * Asks every probe through the gateway at `url` until the cache answers all of them (X-Cache HIT
 * on a second asking), at most `tries` rounds 20 ms apart; resolves with whether it did.
 *
 * @example
 * if (!(await warmCache(gatewayUrl, probes))) throw new Error('the cache did not take the probes');
 */
export async function warmCache(url: string, probes: readonly Probe[], tries = 50): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    await askAll(url, probes);
    const second = await Promise.all(
      probes.map(async (p) => (await postJson(url, { jsonrpc: '2.0', id: 1, ...p })).headers.get('x-cache')),
    );
    if (second.every((c) => c === 'HIT')) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/**
 * Reads `probes` through the gateway (`gatewayUrl`) continuously, `concurrency` readers at a time,
 * for `leadMs`, then runs `act` (the reorg) while they go on, and for `afterMs` after it; then
 * asks the node (`nodeUrl`) for the chain after the change. Every answer must be the chain's at
 * some moment of its request: the old chain's (`before`, asked from the node before the readers
 * start unless the caller did) for a request that ended before the change started, the new chain's for one that
 * started after it ended (`graceMs` later when the gateway can only learn of the change from the
 * upstream's announcement), either in between (or, forwarded to the node, whatever the node
 * answered while it changed). Anything else is `stale`.
 *
 * @example
 * const check = await queryDuringReorg({ gatewayUrl, nodeUrl: anvil.http, probes, act: () => rpc(devUrl, 'evm_revert', [id]) });
 * expect(check.stale).toEqual([]);
 */
export async function queryDuringReorg(options: {
  gatewayUrl: string;
  nodeUrl: string;
  probes: readonly Probe[];
  before?: readonly string[];
  act: () => Promise<unknown>;
  leadMs?: number;
  /** Answers to have before `act` runs (after `leadMs`; default 0). */
  minAnswersBefore?: number;
  afterMs?: number;
  concurrency?: number;
  graceMs?: number;
}): Promise<ReorgCheck> {
  const { gatewayUrl, probes } = options;
  const before = options.before ?? (await askAll(options.nodeUrl, probes));
  const grace = options.graceMs ?? 0;
  const answers: Answer[] = [];
  let stop = false;
  let next = 0;
  const reader = async () => {
    while (!stop) {
      const probe = next++ % probes.length;
      const t0 = performance.now();
      const r = await postJson(gatewayUrl, { jsonrpc: '2.0', id: 1, ...probes[probe]! });
      answers.push({ probe, t0, t1: performance.now(), answer: answerOf(r.json), cache: r.headers.get('x-cache') });
    }
  };
  const readers = Array.from({ length: options.concurrency ?? 4 }, reader);
  await new Promise((r) => setTimeout(r, options.leadMs ?? 300));
  // on a loaded machine the lead may hold few answers: read on until `minAnswersBefore` are in (10 s at most)
  const leadUntil = performance.now() + 10_000;
  while (answers.length < (options.minAnswersBefore ?? 0) && performance.now() < leadUntil) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const start = performance.now();
  await options.act();
  const end = performance.now();
  await new Promise((r) => setTimeout(r, options.afterMs ?? 1_000));
  stop = true;
  await Promise.all(readers);
  const after = await askAll(options.nodeUrl, probes);
  const stale: Answer[] = [];
  let lastOld: number | undefined;
  for (const a of answers) {
    const old = a.answer === before[a.probe];
    const fresh = a.answer === after[a.probe];
    if (old && !fresh && a.t0 > end) lastOld = Math.max(lastOld ?? 0, a.t0 - end);
    // during the change the node passes through states of its own (a revert before the new
    // blocks): an answer forwarded to it then is the chain's at that moment; one from the cache
    // must be the chain's before or after
    const ok = a.t1 < start ? old : a.t0 > end + grace ? fresh : old || fresh || a.cache !== 'HIT';
    if (!ok) stale.push(a);
  }
  return {
    answers,
    act: { start, end },
    stale,
    lastOldAfterMs: lastOld,
    changed: probes.filter((_, i) => before[i] !== after[i]).length,
    hitsBefore: answers.filter((a) => a.t1 < start && a.cache === 'HIT').length,
    hitsAfter: answers.filter((a) => a.t0 > end && a.cache === 'HIT').length,
  };
}
