import { GatewayError, UpstreamRpcError } from '../../../errors/GatewayError.js';
import { contractsAllowed } from '../../../keys/restrictions/contractsAllowed.js';
import type { Logger } from '../../../log/createLogger.js';
import type { Network } from '../../../network/createNetwork.js';
import type { RequestContext } from '../../../pipeline/RequestContext.js';
import { refused } from '../../../pipeline/stages/refused.js';
import { classifyUpstreamError } from '../../../upstream/classifyUpstreamError.js';
import { scoreClassOf } from '../../../upstream/scoreClassOf.js';
import type { PreparedCall } from '../../FamilyHandler.js';
import type { FilterKind } from '../../types.js';
import { ethMethods } from '../ethMethods.js';
import type { FilterEntry, FilterStore } from './FilterStore.js';
import { isFilterNotFound } from './isFilterNotFound.js';
import { newFilterId } from './newFilterId.js';

/** The default idle timeout of a filter: the one geth, anvil and most nodes apply to theirs. */
export const FILTER_TIMEOUT_MS = 5 * 60_000;

/** A log filter naming more contracts than this is kept as naming every contract (bounded storage). */
const MAX_KEPT_CONTRACTS = 256;
/** Filters handed to the sweep at most per round. */
const SWEEP_BATCH = 500;
/** An upstream's filter id longer than this is not one (it is stored and sent back upstream). */
const MAX_UPSTREAM_ID = 256;

/** What a filter call answers, and the upstream that answered (none when the registry answered alone). */
export interface FilterAnswer {
  readonly result: unknown;
  readonly upstream: string | undefined;
  /** Never from a failover partner (filters live on primaries). */
  readonly failover?: undefined;
}

/** The gateway's eth filters: what the request path sends filter calls to. */
export interface EthFilters {
  /**
   * Answers one filter call (a row with `filter`, see `MethodTraits.filter`) of `ctx`'s key on
   * `network`. With `raw`, a read's result may come back as RawJson text. Throws the call's error.
   */
  forward(
    ctx: Pick<RequestContext, 'key' | 'signal'>,
    network: Network,
    prepared: PreparedCall,
    raw: boolean,
  ): Promise<FilterAnswer>;
  /** Runs one sweep now: removes filters idle past the timeout (and their upstream filters); resolves with how many. */
  sweepNow(): Promise<number>;
  /** Stops the sweep timer. */
  close(): void;
}

/** The answer nodes give for an id they hold no filter by; the same for every case, so nothing is revealed. */
const filterNotFound = () => new GatewayError('FILTER_NOT_FOUND', 'filter not found');

/** Kept for a log filter: the contracts it names (`[]`: every contract), bounded. */
function keptContracts(named: readonly string[] | undefined): readonly string[] {
  if (named === undefined || named.length > MAX_KEPT_CONTRACTS) return [];
  return named.map((a) => a.toLowerCase());
}

/**
 * The gateway-side filter registry (issue 20: nothing one key does may reach another key's
 * data). Nodes keep filters by ids any caller can use, so the gateway never hands out theirs:
 *
 * - `eth_newFilter`, `eth_newBlockFilter`, `eth_newPendingTransactionFilter` install the filter
 *   on one upstream (the healthiest primary that serves the method, the next on a transport
 *   failure; never hedged, so one call makes one filter) and answer a new random 128-bit id,
 *   kept in `store` with the key that made it, the network, the upstream and the upstream's id.
 *   A key holding `maxPerKey` live filters gets `TOO_MANY_FILTERS` (-32005) instead.
 * - `eth_getFilterChanges`, `eth_getFilterLogs` find the id; when it is not the calling key's
 *   own live filter on this network (unknown, another key's, expired, another network's), the
 *   answer is the node's own `filter not found` (-32000), the same in every case. Otherwise the
 *   call goes to the upstream that holds it (`network.forwardTo`) with that upstream's id, and
 *   the read keeps the filter alive. A log filter's contracts are checked against the key's
 *   allowlist at each read too (settings may have changed since). When the upstream is no
 *   longer configured or answers that it has no such filter (it restarted, or expired it), the
 *   entry is dropped and the answer is `filter not found`; a transport failure is
 *   `UPSTREAM_UNAVAILABLE` and keeps the entry.
 * - `eth_uninstallFilter` answers `false` for an id that is not the key's own (as nodes do for
 *   an unknown id), else removes the entry and the upstream's filter and answers `true`.
 * - A filter not read for `timeoutMs` (default 5 minutes, the nodes' own) is gone at once; a
 *   sweep every `timeoutMs / 4` (at most 30 s) removes it from the store and its upstream.
 *
 * @example
 * const filters = createEthFilters({ store, networks, maxPerKey: 100 });
 * const { result } = await filters.forward(ctx, network, prepared, false); // '0x8c1d…'
 */
export function createEthFilters(deps: {
  store: FilterStore;
  networks: readonly Network[];
  maxPerKey: number;
  timeoutMs?: number | undefined;
  log?: Logger | undefined;
  now?: () => number;
}): EthFilters {
  const { store, maxPerKey, log } = deps;
  const timeoutMs = deps.timeoutMs ?? FILTER_TIMEOUT_MS;
  const now = deps.now ?? Date.now;
  const byName = new Map(deps.networks.map((n) => [n.settings.name, n]));
  const holds = (network: Network, upstream: string) => network.upstreams.some((u) => u.name === upstream);

  const tooMany = () =>
    new GatewayError(
      'TOO_MANY_FILTERS',
      `too many filters for this API key: at most ${maxPerKey}; remove one with eth_uninstallFilter, or let one expire (${Math.round(timeoutMs / 1000)} s without a read)`,
      { data: { limit: maxPerKey }, refusal: 'filters' },
    );

  /** Removes a filter from its upstream; failures are left to the node's own timeout. */
  const uninstallUpstream = async (network: Network, upstream: string, upstreamId: string, signal?: AbortSignal) => {
    if (!holds(network, upstream)) return;
    try {
      await network.forwardTo(
        upstream,
        'eth_uninstallFilter',
        [upstreamId],
        ethMethods.eth_uninstallFilter,
        false,
        signal ?? AbortSignal.timeout(10_000),
      );
    } catch (err) {
      log?.info('eth filter not removed upstream (the node drops it after its own timeout)', {
        network: network.settings.name,
        upstream,
        error: (err as Error).message,
      });
    }
  };

  /** Installs the filter on the best primary that takes it; a transport failure (or overload) moves to the next. */
  async function installUpstream(network: Network, prepared: PreparedCall, signal: AbortSignal) {
    const method = prepared.upstreamMethod;
    const cls = scoreClassOf(prepared.policy);
    const takes = (h: ReturnType<Network['health']>[number]) => h.healthy && !h.lacks.includes(method);
    const order = network
      .health()
      .filter((h) => h.role === 'primary')
      .sort((a, b) => Number(takes(b)) - Number(takes(a)) || a.classes[cls].score - b.classes[cls].score);
    let last: unknown;
    for (const h of order) {
      try {
        return await network.forwardTo(h.name, method, prepared.upstreamParams, prepared.policy, false, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        if (err instanceof UpstreamRpcError) {
          // the node's answer about the request (invalid params…) is the client's; its overload
          // or lack of the method sends the filter to the next upstream
          const verdict = classifyUpstreamError(err).kind;
          if (verdict !== 'unavailable' && verdict !== 'unsupported') throw err;
        } else if (!(err instanceof GatewayError && err.kind === 'UPSTREAM_UNAVAILABLE')) throw err;
        last = err;
      }
    }
    throw (
      last ??
      new GatewayError(
        'UPSTREAM_UNAVAILABLE',
        `upstream unavailable for network ${network.settings.name}: no upstream`,
        {
          data: { network: network.settings.name, reason: 'upstream-error' },
        },
      )
    );
  }

  async function install(
    owner: string,
    network: Network,
    prepared: PreparedCall,
    kind: FilterKind,
    signal: AbortSignal,
  ): Promise<FilterAnswer> {
    if ((await store.count(owner, now())) >= maxPerKey) throw tooMany();
    const { result, upstream } = await installUpstream(network, prepared, signal);
    if (typeof result !== 'string' || result.length === 0 || result.length > MAX_UPSTREAM_ID) {
      throw new GatewayError(
        'UPSTREAM_UNAVAILABLE',
        `upstream unavailable for network ${network.settings.name}: ${upstream} answered ${prepared.upstreamMethod} without a filter id`,
        { data: { network: network.settings.name, reason: 'bad-response' } },
      );
    }
    const at = now();
    const entry: FilterEntry = {
      id: newFilterId(),
      owner,
      network: network.settings.name,
      upstream,
      upstreamId: result,
      kind,
      ...(kind === 'logs' ? { contracts: keptContracts(prepared.policy.contracts?.(prepared.upstreamParams)) } : {}),
      createdAt: at,
      polledAt: at,
    };
    let added: boolean;
    try {
      added = await store.add(entry, maxPerKey);
    } catch (err) {
      void uninstallUpstream(network, upstream, result);
      throw err;
    }
    if (!added) {
      // another install of the key got the last place meanwhile
      void uninstallUpstream(network, upstream, result);
      throw tooMany();
    }
    return { result: entry.id, upstream };
  }

  /** The caller's own live filter `id` on `network`, or undefined. */
  async function own(owner: string, network: Network, id: string): Promise<FilterEntry | undefined> {
    const entry = await store.get(id, now());
    return entry !== undefined && entry.owner === owner && entry.network === network.settings.name ? entry : undefined;
  }

  async function read(
    ctx: Pick<RequestContext, 'key' | 'signal'>,
    network: Network,
    prepared: PreparedCall,
    id: string,
    raw: boolean,
  ): Promise<FilterAnswer> {
    const owner = ctx.key!.record.key;
    const entry = await own(owner, network, id);
    if (entry === undefined) throw filterNotFound();
    if (!holds(network, entry.upstream)) {
      // the upstream that held it is no longer configured: the filter is gone with it
      await store.remove(id, owner, now());
      throw filterNotFound();
    }
    if (entry.contracts !== undefined && !contractsAllowed(ctx.key!.record.settings, entry.contracts)) {
      throw refused('contract');
    }
    let answer: Awaited<ReturnType<Network['forwardTo']>>;
    try {
      answer = await network.forwardTo(
        entry.upstream,
        prepared.upstreamMethod,
        [entry.upstreamId],
        prepared.policy,
        raw,
        ctx.signal,
      );
    } catch (err) {
      if (!isFilterNotFound(err)) throw err;
      // the node restarted or expired it: gone for the client too
      await store.remove(id, owner, now()).catch(() => false);
      throw filterNotFound();
    }
    try {
      await store.touch(id, owner, now());
    } catch (err) {
      log?.warn('eth filter read not recorded: it may expire early', { error: (err as Error).message });
    }
    return { result: answer.result, upstream: answer.upstream };
  }

  async function uninstall(owner: string, network: Network, id: string, signal: AbortSignal): Promise<FilterAnswer> {
    const entry = await own(owner, network, id);
    // as a node answers for an id it does not hold
    if (entry === undefined || !(await store.remove(id, owner, now()))) return { result: false, upstream: undefined };
    await uninstallUpstream(network, entry.upstream, entry.upstreamId, signal);
    return { result: true, upstream: entry.upstream };
  }

  let sweeping: Promise<number> | undefined;
  const sweepNow = (): Promise<number> => {
    sweeping ??= (async () => {
      let removed = 0;
      for (;;) {
        const expired = await store.sweep(now(), SWEEP_BATCH);
        removed += expired.length;
        await Promise.all(
          expired.map((e) => {
            const network = byName.get(e.network);
            return network === undefined ? undefined : uninstallUpstream(network, e.upstream, e.upstreamId);
          }),
        );
        if (expired.length < SWEEP_BATCH) return removed;
      }
    })().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };
  const timer = setInterval(
    () =>
      void sweepNow().catch((err: unknown) =>
        log?.warn('eth filter sweep failed (tried again at the next round)', { error: (err as Error).message }),
      ),
    Math.max(250, Math.min(30_000, Math.floor(timeoutMs / 4))),
  );
  timer.unref();

  return {
    async forward(ctx, network, prepared, raw) {
      const role = prepared.policy.filter;
      const owner = ctx.key!.record.key;
      if (role === undefined)
        throw new GatewayError('INTERNAL_ERROR', `${prepared.upstreamMethod} is not a filter method`);
      if (role.op === 'install') return install(owner, network, prepared, role.kind, ctx.signal);
      const param = (prepared.upstreamParams as readonly unknown[])[0];
      // ids are made lowercase; a node compares them as given, but case never names another filter
      const id = typeof param === 'string' ? param.toLowerCase() : '';
      if (role.op === 'read') return read(ctx, network, prepared, id, raw);
      return uninstall(owner, network, id, ctx.signal);
    },
    sweepNow,
    close: () => clearInterval(timer),
  };
}
