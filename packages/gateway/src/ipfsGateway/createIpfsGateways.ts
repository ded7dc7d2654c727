import type { AccountStore } from '../accounts/AccountStore.js';
import { createIpfsAgent } from '../ipfs/createIpfsAgent.js';
import { servedBytesKey } from '../ipfs/createServedMeter.js';
import type { IpfsUpstream } from '../ipfs/IpfsUpstream.js';
import { createKeyGate, type KeyGate } from '../limits/createKeyGate.js';
import type { Limiter } from '../limits/Limiter.js';
import type { Plan } from '../plans/Plan.js';
import { createGatewayDirectory, type GatewayDirectory } from './access/createGatewayDirectory.js';
import { createPinScope, type PinScope } from './access/createPinScope.js';
import type { IpfsGatewaySettings } from './config/IpfsGatewaySettings.js';
import { type GatewayMatch, matchGatewayRequest } from './matchGatewayRequest.js';
import type { GatewayStore } from './store/GatewayStore.js';
import { createBlockCache } from './upstream/createBlockCache.js';
import { createFileCache, type FileCache } from './upstream/createFileCache.js';
import { createStreamConnections } from './upstream/createStreamConnections.js';

/** Memory for the small blocks (root and directory nodes) reads start from: a warm read skips their `block/get`. */
const BLOCK_CACHE_BYTES = 8 * 1024 * 1024;
/** The largest block kept (a directory or file node; file data blocks are streamed, not kept). */
const BLOCK_CACHE_MAX_BLOCK = 64 * 1024;

/** Dedicated gateways as the edge and the admin API reach them. */
export interface IpfsGateways {
  readonly settings: IpfsGatewaySettings;
  readonly store: GatewayStore;
  readonly directory: GatewayDirectory;
  readonly scope: PinScope;
  readonly upstream: IpfsUpstream;
  /** Small whole files already served (`fileCacheBytes`), for every gateway. */
  readonly files: FileCache;
  /** Each account's reads in flight (`maxConcurrentPerAccount`, `maxQueuedPerAccount`), by account id. */
  readonly slots: KeyGate;
  readonly limiter: Limiter;
  /** Whether a request (Host, normalised path) is for a dedicated gateway, and in which form. */
  match(host: string | undefined, path: string): GatewayMatch | undefined;
  /** The limiter key an account's gateway bandwidth is metered under (`createServedMeter`'s key). */
  meterKey(accountId: string): string;
  /** Bytes the account's gateways served today (UTC), every instance together with Redis. */
  bandwidthToday(accountId: string): Promise<number>;
  close(): void;
}

/**
 * Builds the dedicated gateways' serving side: a connection pool to the IPFS node (the same
 * upstream as `/api/v0`) with a cache of its small blocks (8 MiB, blocks up to 64 KiB), the gateway directory (gateways, account plans and tokens, cached 2 s),
 * a cache of small whole files already served (`fileCacheBytes`), each account's slots (reads in
 * flight), the restricted scope over the pin records, and the account's bandwidth meter key on the shared
 * limiter (served bytes are metered by `createServedMeter`, as the API's are).
 *
 * @example
 * const gateways = createIpfsGateways({ settings, store, accounts: db.accounts, plans, upstreamUrl, headers: {}, limiter });
 */
export function createIpfsGateways(deps: {
  settings: IpfsGatewaySettings;
  store: GatewayStore;
  accounts: Pick<AccountStore, 'findAccount'>;
  plans: Readonly<Record<string, Plan>>;
  defaultPlan: string;
  upstreamUrl: string;
  headers: Readonly<Record<string, string>>;
  limiter: Limiter;
}): IpfsGateways {
  const url = new URL(deps.upstreamUrl);
  const agent = createIpfsAgent(url);
  const uncached: IpfsUpstream = { url, agent, headers: deps.headers, idleTimeoutMs: deps.settings.timeoutMs };
  const upstream: IpfsUpstream = {
    ...uncached,
    ...(url.protocol === 'http:' ? { streams: createStreamConnections(url, deps.headers) } : {}),
    blocks: createBlockCache({ maxBytes: BLOCK_CACHE_BYTES, maxBlockBytes: BLOCK_CACHE_MAX_BLOCK }),
  };
  const meterKey = (accountId: string) => `gateway-account:${accountId}`;
  return {
    settings: deps.settings,
    store: deps.store,
    directory: createGatewayDirectory({
      store: deps.store,
      accounts: deps.accounts,
      plans: deps.plans,
      defaultPlan: deps.defaultPlan,
    }),
    // the scope's walks visit up to 200,000 blocks once per change of pins: read past the block
    // cache, which is for the blocks answers start from
    scope: createPinScope({ store: deps.store, upstream: uncached }),
    upstream,
    slots: createKeyGate({
      maxConcurrent: deps.settings.maxConcurrentPerAccount,
      maxQueued: deps.settings.maxQueuedPerAccount,
    }),
    files: createFileCache({
      maxBytes: deps.settings.fileCacheBytes,
      maxFileBytes: deps.settings.fileCacheMaxFileBytes,
    }),
    limiter: deps.limiter,
    match: (host, path) => matchGatewayRequest(host, path, deps.settings),
    meterKey,
    bandwidthToday: (accountId) => deps.limiter.usedToday(servedBytesKey(meterKey(accountId))),
    close: () => {
      agent.destroy();
      upstream.streams?.close();
    },
  };
}
