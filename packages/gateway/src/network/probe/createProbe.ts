import type { NetworkSettings } from '../../config/types.js';
import { UpstreamRpcError } from '../../errors/GatewayError.js';
import type { FamilyHandler } from '../../families/FamilyHandler.js';
import type { Logger } from '../../log/createLogger.js';
import { headOfAnswer } from '../../upstream/headOfAnswer.js';
import { SCORE_CLASSES, type ScoreClass } from '../../upstream/scoreClassOf.js';
import { UpstreamTransportError } from '../../upstream/UpstreamTransportError.js';
import type { NetworkHeads } from '../heads/createHeads.js';
import type { Member } from '../members/createMember.js';

/** The probe is a light read (a head or a chain id). */
export const PROBE_CLASS: ScoreClass = 'light';

/** What each family asks an upstream at start and after a recovery: its chain id and its client (spec) version. */
const BASICS = {
  eth: { chainId: 'eth_chainId', version: 'web3_clientVersion' },
  starknet: { chainId: 'starknet_chainId', version: 'starknet_specVersion' },
} as const;

/** Two chain ids (hex felts or quantities) are the same number. */
function sameChain(a: string, b: string): boolean {
  try {
    return BigInt(a) === BigInt(b);
  } catch {
    return a.toLowerCase() === b.toLowerCase();
  }
}

/** The background health of a network's upstreams. */
export interface NetworkProbe {
  /** Runs one probe round now (tests, and the first round at start); a round already running is joined. */
  probeNow(): Promise<void>;
  /** Stops the timer. */
  stop(): void;
}

/** What the probe is built on. */
export interface ProbeDeps {
  readonly settings: NetworkSettings;
  readonly family: FamilyHandler;
  readonly primaries: readonly Member[];
  readonly partners: readonly Member[];
  readonly heads: NetworkHeads;
  /** A member came back (a probe answered after failing): it starts clean. */
  readonly recovered: (m: Member) => void;
  /** A member's chain changed (it takes traffic again, or no more): the rankings are stale. */
  readonly chainChanged: () => void;
  /** After the basics are (re-)learned, at start and after a recovery: more to learn (the block window). */
  readonly learnMore?: ((m: Member, timeoutMs: number) => Promise<void>) | undefined;
  readonly now: () => number;
  readonly log?: Logger | undefined;
}

/**
 * The background health of a network: every `policy.probeIntervalMs` each primary is asked for
 * its head (the family's `probeMethod`); lag, latency (a light-class sample), error rates and
 * breakers follow (a refused connection opens the breaker at once; a breaker past its open time
 * takes the probe as its trial). Each upstream's chain id and client version (Starknet: spec
 * version and so its pre-confirmed tag) are learned at start and after a recovery; one on
 * another chain than the network's takes no traffic. Partners (paid providers) are probed every
 * `partnerProbeIntervalMs`, or every round while no primary is usable.
 *
 * @example
 * const probe = createProbe({ settings, family, primaries, partners, heads, recovered, chainChanged, now: Date.now });
 * await probe.probeNow();
 */
export function createProbe(deps: ProbeDeps): NetworkProbe {
  const { settings, family, primaries, partners, heads, recovered, chainChanged, learnMore, now, log } = deps;
  const policy = settings.policy;
  let nextId = 1;
  async function ask(m: Member, method: string, timeoutMs: number): Promise<unknown> {
    const answer = await m.upstream.call(
      { jsonrpc: '2.0', id: nextId++, method, params: [] },
      false,
      AbortSignal.timeout(timeoutMs),
    );
    if (answer.error !== undefined) throw new UpstreamRpcError(answer.error.code, answer.error.message);
    return answer.result;
  }
  /**
   * Learns what an upstream is: chain id and client version (Starknet: spec version, pre-confirmed
   * tag). `probed` is the probe's answer, which is the chain id where the family probes with it.
   */
  async function learnBasics(m: Member, probed: unknown, timeoutMs: number): Promise<void> {
    const basics = BASICS[settings.family];
    const [chainId, second] = await Promise.allSettled([
      basics.chainId === family.probeMethod ? probed : ask(m, basics.chainId, timeoutMs),
      ask(m, basics.version, timeoutMs),
    ]);
    if (chainId.status === 'fulfilled' && typeof chainId.value === 'string') {
      m.chainId = chainId.value;
      const wrong = settings.chainId !== undefined && !sameChain(chainId.value, settings.chainId);
      if (wrong && !m.wrongChain) {
        log?.error('upstream is on another chain: it takes no traffic', {
          network: settings.name,
          upstream: m.upstream.name,
          expected: settings.chainId,
          got: chainId.value,
        });
      }
      if (wrong !== m.wrongChain) chainChanged();
      m.wrongChain = wrong;
    }
    if (second.status === 'fulfilled' && typeof second.value === 'string') {
      if (settings.family === 'starknet') {
        const mm = /^(\d+)\.(\d+)/.exec(second.value);
        m.specVersion = second.value;
        m.pendingTag = mm && Number(mm[1]) === 0 && Number(mm[2]) < 9 ? 'pending' : 'pre_confirmed';
      } else {
        m.clientVersion = second.value;
      }
    }
    // learned once both answered (a node that lacks web3_clientVersion is asked again after a recovery)
    m.relearn = chainId.status !== 'fulfilled';
  }
  async function probeOne(m: Member, timeoutMs: number): Promise<void> {
    const started = performance.now();
    const wasDown = m.probeOk === false;
    try {
      const probed = await ask(m, family.probeMethod, timeoutMs);
      const head = headOfAnswer(family.probeMethod, [], probed);
      const latency = performance.now() - started;
      m.lastProbeMs = Math.round(latency * 100) / 100;
      m.probeOk = true;
      heads.note(m, head);
      // the probe is a light read; every class hears that the node answers
      for (const c of SCORE_CLASSES) {
        if (c === PROBE_CLASS) m.stats[c].record(latency, true);
        else m.stats[c].recordOutcome(true);
      }
      // a breaker past its open time takes the probe as its trial
      if (m.breaker.state() !== 'closed' && m.breaker.allow(now())) m.breaker.success();
      else if (wasDown) recovered(m);
      if (m.relearn) {
        await learnBasics(m, probed, timeoutMs);
        if (!m.wrongChain) await learnMore?.(m, timeoutMs);
      }
    } catch (err) {
      const wasLive = m.probeOk !== false;
      m.probeOk = false;
      m.lastFailure = err instanceof Error ? err.message : String(err);
      if (wasLive && m.role === 'primary') heads.updateLags();
      for (const c of SCORE_CLASSES) m.stats[c].recordOutcome(false);
      // a node that refuses connections is down: no user request needs to find out; other
      // failures (a slow answer) count like a failed request
      if (m.breaker.state() === 'closed') {
        if (err instanceof UpstreamTransportError && err.failure === 'connect') m.breaker.trip(now());
        else m.breaker.failure(now());
      } else if (m.breaker.allow(now())) m.breaker.failure(now());
    } finally {
      m.lastProbeAt = now();
    }
  }
  let probing: Promise<void> | undefined;
  let partnersProbedAt: number | undefined;
  const probeNow = () => {
    probing ??= (async () => {
      // a probe that takes a second is trouble enough; shorter ones fail nodes that are only busy
      const timeoutMs = Math.min(2_000, Math.max(1_000, policy.probeIntervalMs));
      // partners cost money at a provider: probed rarely, or at every round while no primary is usable
      const primariesDown = !primaries.some(heads.live);
      const t = now();
      const probePartners =
        partners.length > 0 &&
        (partnersProbedAt === undefined || primariesDown || t - partnersProbedAt >= policy.partnerProbeIntervalMs);
      if (probePartners) partnersProbedAt = t;
      await Promise.all([...primaries, ...(probePartners ? partners : [])].map((m) => probeOne(m, timeoutMs)));
    })().finally(() => {
      probing = undefined;
    });
    return probing;
  };
  const timer = setInterval(() => void probeNow(), policy.probeIntervalMs);
  timer.unref();
  return { probeNow, stop: () => clearInterval(timer) };
}
