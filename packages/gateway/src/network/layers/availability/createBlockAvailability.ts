import type { NetworkSettings } from '../../../config/types.js';
import { UpstreamRpcError } from '../../../errors/GatewayError.js';
import type { Logger } from '../../../log/createLogger.js';
import { classifyUpstreamError } from '../../../upstream/classifyUpstreamError.js';
import type { NetworkHeads } from '../../heads/createHeads.js';
import type { Member } from '../../members/createMember.js';
import type { NetworkCall, Route, RouteOutcome, SendLayer } from '../../types.js';
import { blockUnavailable } from './blockUnavailable.js';
import { type BlockWindow, configuredWindow } from './BlockWindow.js';
import { measureBlockWindow } from './measureBlockWindow.js';
import { oldestHeld } from './oldestHeld.js';
import { stateBlockOf } from './stateBlockOf.js';

/** Block availability (archive-aware routing) of one network's upstreams. */
export interface BlockAvailability {
  /**
   * Whether `m` may be asked `call`: true unless the call reads state at a height (`stateBlockOf`)
   * below the oldest block `m` is known to hold. The select layer narrows its list with it.
   */
  holds(m: Member, call: NetworkCall): boolean;
  /**
   * Around the primaries' route: a call for a height no primary holds gets `BLOCK_UNAVAILABLE`
   * without any upstream being asked; when every upstream asked answered that it lacks the
   * state, the client gets `BLOCK_UNAVAILABLE` too (the block and the windows, not a node's text).
   */
  route(route: Route): Route;
  /**
   * The error for the client when every upstream asked failed with `err`: `BLOCK_UNAVAILABLE`
   * when the call reads state at a height and `err` is a node's "no such state", else `err`.
   */
  explain(call: NetworkCall, err: Error): Error;
  /** Below the breaker: an answer that an upstream lacks the state at a height teaches its window. */
  readonly send: SendLayer;
  /** At start and after a recovery: the window as configured, else measured (`measureBlockWindow`). */
  learn(m: Member, timeoutMs: number): Promise<void>;
}

/**
 * Builds the block availability of a network: every upstream's window (`Member.window`) is its
 * config's (`archive: true`, `historyBlocks: N`), or measured at start and on recovery on an
 * Ethereum network (`learn`), and narrowed by answers (an upstream that says `missing trie node`
 * for a height below its head holds no older block than the next one, until it is measured
 * again). A state read at a height (`eth_getBalance`, `eth_call`… at a number or `earliest`)
 * goes only to upstreams that hold it, so a pruned node's `missing trie node` is never the first
 * answer for an old block; when none holds it the client gets -32000 `BLOCK_UNAVAILABLE` naming
 * the block and the windows. Tags that follow the head and block hashes are not narrowed.
 *
 * @example
 * const availability = createBlockAvailability(settings, primaries, partners, heads, log);
 * const send = availability.send(createUpstreamSend(policy, undefined));
 * const readRoute = availability.route(createReadRetry({ … }));
 */
export function createBlockAvailability(
  settings: Pick<NetworkSettings, 'name' | 'family' | 'upstreams' | 'partners'>,
  primaries: readonly Member[],
  partners: readonly Member[],
  heads: Pick<NetworkHeads, 'best'>,
  log?: Logger,
): BlockAvailability {
  const configured = (m: Member): BlockWindow => {
    const list = m.role === 'primary' ? settings.upstreams : settings.partners;
    const u = list.find((x) => x.name === m.upstream.name);
    return u === undefined ? { kind: 'unknown' } : configuredWindow(u);
  };
  // what the config says holds from the start (the rest is learned)
  for (const m of [...primaries, ...partners]) m.window = configured(m);
  const headOf = (m: Member) => m.head ?? heads.best();
  const holdsBlock = (m: Member, block: number) => {
    const oldest = oldestHeld(m.window, headOf(m));
    return oldest === undefined || block >= oldest;
  };
  const changed = (m: Member, w: BlockWindow, why: string) => {
    const was = m.window;
    m.window = w;
    if (was.kind !== w.kind || (was.kind === 'recent' && w.kind === 'recent' && was.blocks !== w.blocks)) {
      log?.info('upstream block window', {
        network: settings.name,
        upstream: m.upstream.name,
        window: w.kind === 'recent' ? `latest ${w.blocks} blocks` : w.kind,
        why,
      });
    }
  };
  function explain(call: NetworkCall, err: Error): Error {
    const block = stateBlockOf(call);
    if (block === undefined || !(err instanceof UpstreamRpcError)) return err;
    const verdict = classifyUpstreamError(err, { requested: call.requested, bestHead: heads.best() });
    return verdict.kind === 'missing' ? blockUnavailable(settings.name, block, primaries) : err;
  }
  /** A state read at `block`: refused when no primary holds it, else routed and its failure explained. */
  async function routeAt(route: Route, call: NetworkCall, block: number): Promise<RouteOutcome> {
    const onChain = primaries.filter((m) => !m.wrongChain);
    if (onChain.length > 0 && !onChain.some((m) => holdsBlock(m, block))) {
      return {
        ok: false,
        error: blockUnavailable(settings.name, block, primaries),
        partnersMayTry: false,
        firstFailed: undefined,
        preferred: undefined,
      };
    }
    const outcome = await route(call);
    if (outcome.ok) return outcome;
    const error = explain(call, outcome.error);
    return error === outcome.error ? outcome : { ...outcome, error };
  }
  return {
    holds(m, call) {
      const block = stateBlockOf(call);
      return block === undefined || holdsBlock(m, block);
    },
    // not async: a call that names no state block (most) is the route's own promise
    route: (route) => (call) => {
      const block = stateBlockOf(call);
      return block === undefined ? route(call) : routeAt(route, call, block);
    },
    explain,
    send: (next) => (m, call, signal) => {
      // only a state read at a height below the node's head can teach its window
      const block = stateBlockOf(call);
      if (block === undefined || m.head === undefined || block >= m.head) return next(m, call, signal);
      return next(m, call, signal).then((answer) => {
        const head = m.head;
        if (answer.error === undefined || head === undefined) return answer;
        const e = answer.error;
        const verdict = classifyUpstreamError(
          {
            code: typeof e.code === 'number' ? e.code : -32603,
            message: typeof e.message === 'string' ? e.message : '',
          },
          { requested: call.requested, head, bestHead: head },
        );
        if (verdict.kind !== 'missing' || block >= head) return answer;
        // it holds no block up to this one: at most the latest head - block blocks
        const blocks = head - block;
        const w = m.window;
        if (w.kind !== 'recent' || w.blocks > blocks)
          changed(m, { kind: 'recent', blocks, source: 'answer' }, `lacked block ${block}`);
        return answer;
      });
    },
    async learn(m, timeoutMs) {
      const w = configured(m);
      // partners (paid providers) are not narrowed, so not measured either
      if (w.kind !== 'unknown' || settings.family !== 'eth' || m.role === 'partner') {
        changed(m, w, 'config');
        return;
      }
      changed(m, await measureBlockWindow(m.upstream, m.head, timeoutMs), 'measured');
    },
  };
}
