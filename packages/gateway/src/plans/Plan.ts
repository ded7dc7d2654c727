/**
 * A plan: what a key may spend. Plans come from the config (`plans:`); a key uses its own plan
 * override when it has one, else its account's plan.
 */
export interface Plan {
  readonly name: string;
  /** Credits a key may spend per second (the rate limit; 429 -32005 above it). */
  readonly creditsPerSecond: number;
  /** Credits a key may spend per UTC day (429 -32005 above it, until 00:00 UTC). */
  readonly creditsPerDay: number;
  /** Requests may go to a partner provider when every upstream of a network fails. */
  readonly failoverProtection: boolean;
  /** How many active keys an account on this plan may hold. */
  readonly maxKeys: number;
  /**
   * IPFS content bytes (cat, get, ls, block/get, dag/get, dag/export answers) a key may be served
   * per UTC day, on every instance together; over it, 429 until 00:00 UTC. Absent: unbounded
   * (every plan the config knows has it).
   */
  readonly ipfsServedBytesPerDay?: number;
  /** Bytes one IPFS answer of content may carry: a longer answer is refused (400) or cut (reset) there. */
  readonly ipfsServedBytesPerRequest?: number;
  /**
   * Bytes per second a key's IPFS answers of content are paced to, all together: a key streaming
   * gigabytes takes at most this share of the gateway and its node.
   */
  readonly ipfsServedBytesPerSecond?: number;
  /**
   * Bytes the account's dedicated IPFS gateways may serve per UTC day, all its gateways together,
   * on every instance together (gateway bandwidth); over it, 429 until 00:00 UTC. Absent:
   * unbounded (every plan the config knows has it).
   */
  readonly gatewayBandwidthPerDay?: number;
  /** The widest `eth_getLogs` / `starknet_getEvents` block range its keys may ask for (replaces the network's `maxLogsBlockRange`). */
  readonly maxLogsBlockRange?: number;
  /** The most logs one of its keys' `eth_getLogs` answers may hold (replaces the network's `maxLogsResults`; 0: no cap). */
  readonly maxLogsResults?: number;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/**
 * The plans every gateway knows unless the config overrides them (Infura's tiers; growth and
 * custom are placeholders an operator sets). `dev` is the development key's plan on the
 * embedded default: limits high enough that local work never meets them.
 */
export const DEFAULT_PLANS: Readonly<Record<string, Omit<Plan, 'name'>>> = {
  core: {
    creditsPerSecond: 500,
    creditsPerDay: 3_000_000,
    failoverProtection: false,
    maxKeys: 25,
    ...ipfs(2 * GiB, 1 * GiB, 32 * MiB),
    gatewayBandwidthPerDay: 10 * GiB,
  },
  developer: {
    creditsPerSecond: 4_000,
    creditsPerDay: 15_000_000,
    failoverProtection: false,
    maxKeys: 50,
    ...ipfs(10 * GiB, 4 * GiB, 64 * MiB),
    gatewayBandwidthPerDay: 50 * GiB,
  },
  team: {
    creditsPerSecond: 40_000,
    creditsPerDay: 75_000_000,
    failoverProtection: false,
    maxKeys: 100,
    ...ipfs(50 * GiB, 16 * GiB, 128 * MiB),
    gatewayBandwidthPerDay: 250 * GiB,
  },
  growth: {
    creditsPerSecond: 100_000,
    creditsPerDay: 500_000_000,
    failoverProtection: true,
    maxKeys: 200,
    ...ipfs(250 * GiB, 64 * GiB, 256 * MiB),
    gatewayBandwidthPerDay: 1024 * GiB,
  },
  custom: {
    creditsPerSecond: 1_000_000,
    creditsPerDay: 10_000_000_000,
    failoverProtection: true,
    maxKeys: 1_000,
    ...ipfs(1024 * GiB, 256 * GiB, 512 * MiB),
    gatewayBandwidthPerDay: 10 * 1024 * GiB,
  },
  dev: {
    creditsPerSecond: 100_000_000,
    creditsPerDay: 1_000_000_000_000,
    failoverProtection: false,
    maxKeys: 1_000,
    ...ipfs(1024 ** 5, 1024 ** 5, 4 * GiB),
    gatewayBandwidthPerDay: 1024 ** 5,
  },
};

/** The IPFS served-bytes fields of a plan: per day, per request, per second. */
function ipfs(perDay: number, perRequest: number, perSecond: number) {
  return { ipfsServedBytesPerDay: perDay, ipfsServedBytesPerRequest: perRequest, ipfsServedBytesPerSecond: perSecond };
}

/** The IPFS served-bytes fields a plan the config adds gets when it names none (core's). */
export const DEFAULT_IPFS_SERVED = ipfs(2 * GiB, 1 * GiB, 32 * MiB);

/** The gateway bandwidth a plan the config adds gets when it names none (core's). */
export const DEFAULT_GATEWAY_BANDWIDTH_PER_DAY = 10 * GiB;

/** The plan of a new account (and of keys created without one). */
export const DEFAULT_PLAN_NAME = 'core';
