import type { AccountStore } from '../../accounts/AccountStore.js';
import { OPEN_SETTINGS } from '../../keys/KeySettings.js';
import type { TenantKey } from '../../pipeline/RequestContext.js';
import type { Plan } from '../../plans/Plan.js';
import type { GatewayRecord } from '../GatewayRecord.js';
import type { GatewayStore } from '../store/GatewayStore.js';
import { GATEWAY_TOKEN, hashGatewayToken } from './gatewayTokens.js';

/** A gateway as requests see it: its record, its account's plan, and the tenant its requests run as. */
export interface ServedGateway {
  readonly record: GatewayRecord;
  readonly plan: Plan;
  /**
   * The gateway as the request path's tenant: its id as the key (its own rate and daily credits,
   * its rows in usage), its account, its account's plan and that plan's credit limits.
   */
  readonly tenant: TenantKey;
}

/**
 * The tenant a gateway's requests run as in the request path: no API key is involved; the
 * gateway's id stands for one (limits, usage rows), with its account and the account's plan.
 */
export function gatewayTenant(record: GatewayRecord, plan: Plan): TenantKey {
  return {
    record: {
      key: record.id,
      secretHash: '',
      name: `gateway ${record.name}`,
      accountId: record.accountId,
      plan: null,
      accountPlan: plan.name,
      settings: OPEN_SETTINGS,
      dev: false,
      createdAt: record.createdAt,
      revokedAt: null,
    },
    plan,
    limits: { creditsPerSecond: plan.creditsPerSecond, creditsPerDay: plan.creditsPerDay },
  };
}

/** The gateways and their tokens as the serving side reads them (cached briefly; changes reach it at once here). */
export interface GatewayDirectory {
  /** The gateway named `name`, or undefined. Throws when the database is away and it is not cached. */
  find(name: string): Promise<ServedGateway | undefined>;
  /** Whether `token` is one of the gateway's tokens (a malformed token is not, without a lookup). */
  tokenValid(gatewayId: string, token: string): Promise<boolean>;
  /** Forgets what is cached about a gateway (after a change through the admin API on this instance). */
  forget(gatewayName?: string): void;
}

/** How long a gateway or a token check is kept (changes made on another instance reach this one within it). */
export const GATEWAY_CACHE_MS = 2_000;
const MAX_CACHED = 10_000;

/**
 * The {@link GatewayDirectory} over the store and the accounts: gateways (with their account's
 * plan) and token checks are kept {@link GATEWAY_CACHE_MS} (a flood of requests to one gateway
 * reads the database once every 2 s), at most 10,000 of each; `forget` drops them at once.
 *
 * @example
 * const dir = createGatewayDirectory({ store, accounts, plans });
 * const gw = await dir.find('my-app');
 */
export function createGatewayDirectory(deps: {
  store: Pick<GatewayStore, 'findByName' | 'hasToken'>;
  accounts: Pick<AccountStore, 'findAccount'>;
  plans: Readonly<Record<string, Plan>>;
  defaultPlan: string;
}): GatewayDirectory {
  const gateways = new Map<string, { at: number; value: ServedGateway | undefined }>();
  const tokens = new Map<string, { at: number; valid: boolean }>();
  const fresh = (at: number) => Date.now() - at < GATEWAY_CACHE_MS;
  const bound = <V>(m: Map<string, V>) => {
    if (m.size <= MAX_CACHED) return;
    const first = m.keys().next().value;
    if (first !== undefined) m.delete(first);
  };
  return {
    async find(name) {
      const hit = gateways.get(name);
      if (hit && fresh(hit.at)) return hit.value;
      const record = await deps.store.findByName(name);
      let value: ServedGateway | undefined;
      if (record) {
        const account = await deps.accounts.findAccount(record.accountId);
        const plan = deps.plans[account?.plan ?? deps.defaultPlan] ?? deps.plans[deps.defaultPlan]!;
        // the same tenant (and limits object) while the record is unchanged: a held gateway stays held
        const previous = hit?.value;
        value =
          previous && previous.plan === plan && sameRecord(previous.record, record)
            ? previous
            : { record, plan, tenant: gatewayTenant(record, plan) };
      }
      gateways.set(name, { at: Date.now(), value });
      bound(gateways);
      return value;
    },
    async tokenValid(gatewayId, token) {
      if (!GATEWAY_TOKEN.test(token)) return false;
      const hash = hashGatewayToken(token);
      const key = `${gatewayId}\n${hash}`;
      const hit = tokens.get(key);
      if (hit && fresh(hit.at)) return hit.valid;
      const valid = await deps.store.hasToken(gatewayId, hash);
      tokens.set(key, { at: Date.now(), valid });
      bound(tokens);
      return valid;
    },
    forget(name) {
      if (name === undefined) gateways.clear();
      else gateways.delete(name);
      tokens.clear();
    },
  };
}

function sameRecord(a: GatewayRecord, b: GatewayRecord): boolean {
  return (
    a.id === b.id &&
    a.mode === b.mode &&
    a.accountId === b.accountId &&
    a.allowedOrigins.join('\n') === b.allowedOrigins.join('\n')
  );
}
