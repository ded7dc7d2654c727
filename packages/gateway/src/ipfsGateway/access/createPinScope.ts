import type { CID } from 'multiformats/cid';
import type { IpfsUpstream } from '../../ipfs/IpfsUpstream.js';
import { blockKey, IDENTITY, pinForms } from '../serve/parseRootCid.js';
import type { GatewayStore } from '../store/GatewayStore.js';
import { walkReach } from './walkReach.js';

/** What a restricted gateway may serve: the content an account's active keys pinned. */
export interface PinScope {
  /**
   * Whether `cid` is in the account's pinned content: pinned itself (with `path`, recursively:
   * a path is served under a recursive pin only), or a block under one of its recursive pins
   * (trustless clients read a DAG block by block). Nothing else is asked of the node for a CID
   * that is pinned; for any other, the account's pinned DAGs are walked once (bounded) and the
   * blocks they reach remembered until its pins change.
   */
  allows(accountId: string, cid: CID, path: boolean, signal: AbortSignal): Promise<boolean>;
}

/** What the scope is built from. */
export interface PinScopeDeps {
  readonly store: Pick<GatewayStore, 'pinnedByAccount' | 'recursiveRoots'>;
  readonly upstream: IpfsUpstream;
  /** Blocks remembered across every account (default 500,000): least recently used accounts go first. */
  readonly maxBlocks?: number;
  /** Blocks one walk of an account's pins may visit (default 200,000); past it, only what it reached is allowed. */
  readonly maxWalkBlocks?: number;
  /** Recursive roots read per account (default 1,000, the newest). */
  readonly maxRoots?: number;
  /** The longest one walk may take (default 10 s); a walk cut short is used once, not kept. */
  readonly walkTimeoutMs?: number;
}

interface AccountReach {
  /** The account's recursive roots when the walk ran: another list means its pins changed. */
  readonly fingerprint: string;
  readonly blocks: ReadonlySet<string>;
}

/**
 * The {@link PinScope} over the pin records ({@link GatewayStore.pinnedByAccount}) and the node's
 * blocks. A pinned CID costs one indexed query; a block under a recursive pin is found in the
 * account's reach (computed by one walk of its recursive pins, shared by concurrent requests, and
 * kept while the list of its roots stays the same: a pin added, removed, or a key revoked starts a
 * new one). A walk is bounded (blocks, and the request's deadline): a block it did not reach is
 * refused. Memory is bounded across accounts (least recently used first).
 *
 * @example
 * const scope = createPinScope({ store: gateways, upstream });
 * await scope.allows(accountId, cid, false, signal); // false: refuse 403, nothing fetched for it
 */
export function createPinScope(deps: PinScopeDeps): PinScope {
  const maxBlocks = deps.maxBlocks ?? 500_000;
  const maxWalk = deps.maxWalkBlocks ?? 200_000;
  const maxRoots = deps.maxRoots ?? 1_000;
  const walkTimeoutMs = deps.walkTimeoutMs ?? 10_000;
  const reach = new Map<string, AccountReach>();
  const walking = new Map<string, Promise<AccountReach>>();
  let held = 0;

  const remember = (accountId: string, r: AccountReach) => {
    const old = reach.get(accountId);
    if (old) held -= old.blocks.size;
    reach.delete(accountId);
    reach.set(accountId, r);
    held += r.blocks.size;
    for (const [id, other] of reach) {
      if (held <= maxBlocks || id === accountId) break;
      reach.delete(id);
      held -= other.blocks.size;
    }
  };

  const reachOf = (accountId: string, roots: readonly string[]): Promise<AccountReach> => {
    const fingerprint = roots.join(',');
    const known = reach.get(accountId);
    if (known?.fingerprint === fingerprint) {
      reach.delete(accountId);
      reach.set(accountId, known);
      return Promise.resolve(known);
    }
    const key = `${accountId}\n${fingerprint}`;
    let running = walking.get(key);
    if (running === undefined) {
      // a walk of its own deadline: shared by concurrent requests, it outlives none of them for long
      running = walkReach(deps.upstream, roots, { maxBlocks: maxWalk, signal: AbortSignal.timeout(walkTimeoutMs) })
        .then(({ blocks, complete }) => {
          const r = { fingerprint, blocks };
          // a walk cut short by its deadline is used once, not kept (one cut at its block budget is all there is)
          if (complete || blocks.size >= maxWalk) remember(accountId, r);
          return r;
        })
        .finally(() => walking.delete(key));
      walking.set(key, running);
    }
    return running;
  };

  return {
    async allows(accountId, cid, path, signal) {
      if (cid.multihash.code === IDENTITY) return true;
      if (await deps.store.pinnedByAccount(accountId, pinForms(cid), path)) return true;
      const roots = await deps.store.recursiveRoots(accountId, maxRoots);
      if (roots.length === 0) return false;
      const walked = reachOf(accountId, roots);
      const r = await Promise.race([walked, aborted(signal)]);
      return r?.blocks.has(blockKey(cid)) === true;
    },
  };
}

/** Resolves undefined when `signal` aborts (the request's deadline: it stops waiting for a walk). */
function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}
