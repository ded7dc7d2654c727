import { RawJson } from '../../jsonrpc/RawJson.js';
import { headOfAnswer } from '../../upstream/headOfAnswer.js';
import type { Member } from '../members/createMember.js';
import type { Forwarded, NetworkCall } from '../types.js';

/** An answer that shows a head below one a client already saw. */
export interface BehindAnswer {
  readonly result: unknown;
  readonly by: Member;
  readonly head: number;
}

/** The network's heads: each primary's, the best, the lags, and the head a client already saw. */
export interface NetworkHeads {
  /** Answering: its breaker is not open and its last probe answered. */
  live(m: Member): boolean;
  /**
   * The best head among the live primaries (probes and head answers); a primary that is open or
   * failing its probe does not count (its last head would make the live ones look behind),
   * unless none is live.
   */
  best(): number | undefined;
  /** Records what `m` said its head is, and every primary's lag behind the best. */
  note(m: Member, head: number | undefined): void;
  /** Recomputes every primary's lag (a primary's liveness changed). */
  updateLags(): void;
  /** The highest head a head answer has shown a client. */
  served(): number | undefined;
  /**
   * An answer `by` gave: when it shows a head (`headOfAnswer`), the head is noted; when that head
   * is below the served one, the answer's head is returned (the answer must not reach the
   * client while another upstream may be at the head); otherwise the served head moves to it
   * and undefined is returned.
   */
  behind(call: NetworkCall, by: Member, result: unknown): number | undefined;
  /**
   * Every upstream that answered is behind the head a client already saw. When they are all the
   * upstreams there are (`everyone`), the chain went back (a reorg to a shorter chain, a dev
   * revert): their best answer stands and becomes the served head. When an upstream at the
   * served head failed or is open, the client gets the served head instead: the block number
   * itself, or the last answer of the same call; a lagging node's older head is never shown.
   */
  settleBehind(call: NetworkCall, behind: BehindAnswer, everyone: boolean): Forwarded;
}

/** `head` in the shape of a block-number answer (`result`: hex text, raw hex text or a number); undefined for other shapes. */
function servedNumber(result: unknown, head: number): unknown {
  if (typeof result === 'number') return head;
  if (typeof result === 'string' && /^0x[0-9a-fA-F]+$/.test(result)) return `0x${head.toString(16)}`;
  if (result instanceof RawJson && /^"0x[0-9a-fA-F]+"$/.test(result.text))
    return new RawJson(`"0x${head.toString(16)}"`);
  if (result instanceof RawJson && /^\d+$/.test(result.text)) return new RawJson(String(head));
  return undefined;
}

/**
 * The head follower of one network: each primary's head and lag (re-ranked through
 * `onLagsChanged` when a lag changes), and the rule that the head a client saw never goes
 * backwards (`behind`, `settleBehind`).
 *
 * @example
 * const heads = createHeads(primaries, () => selector.invalidate());
 * heads.note(m, 120);
 * heads.best(); // 120
 */
export function createHeads(primaries: readonly Member[], onLagsChanged: () => void): NetworkHeads {
  /** The highest head shown to a client so far. */
  let served: number | undefined;
  /** The last answer of each head call (`eth_getBlockByNumber("latest", …)`, …) at or above the served head. */
  const lastHeadAnswers = new Map<string, { head: number; result: unknown }>();
  const headKey = (call: NetworkCall) => `${call.method}|${JSON.stringify(call.params)}`;

  const live = (m: Member) => m.breaker.state() !== 'open' && m.probeOk !== false;
  const best = (): number | undefined => {
    let top: number | undefined;
    let topLive: number | undefined;
    for (const m of primaries) {
      if (m.head === undefined) continue;
      if (top === undefined || m.head > top) top = m.head;
      if (live(m) && (topLive === undefined || m.head > topLive)) topLive = m.head;
    }
    return topLive ?? top;
  };
  const updateLags = (): void => {
    const b = best();
    let changed = false;
    for (const p of primaries) {
      const lag = b === undefined || p.head === undefined ? 0 : b - p.head;
      if (lag !== p.lag) {
        p.lag = lag;
        changed = true;
      }
    }
    if (changed) onLagsChanged();
  };
  const note = (m: Member, head: number | undefined): void => {
    m.head = head;
    if (m.role === 'primary') updateLags();
  };

  return {
    live,
    best,
    note,
    updateLags,
    served: () => served,
    behind(call, by, result) {
      const head = headOfAnswer(call.method, call.params, result);
      if (head === undefined) return undefined;
      note(by, head);
      if (served !== undefined && head < served) return head;
      served = head;
      lastHeadAnswers.set(headKey(call), { head, result });
      return undefined;
    },
    settleBehind(call, behind, everyone) {
      if (everyone || served === undefined) {
        served = behind.head;
        lastHeadAnswers.set(headKey(call), { head: behind.head, result: behind.result });
        return { result: behind.result, upstream: behind.by.upstream.name };
      }
      const number = servedNumber(behind.result, served);
      if (number !== undefined) return { result: number, upstream: behind.by.upstream.name };
      const kept = lastHeadAnswers.get(headKey(call));
      if (kept !== undefined && kept.head > behind.head)
        return { result: kept.result, upstream: behind.by.upstream.name };
      return { result: behind.result, upstream: behind.by.upstream.name };
    },
  };
}
