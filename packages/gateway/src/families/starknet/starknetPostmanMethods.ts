import { GatewayError } from '../../errors/GatewayError.js';
import type { PreparedCall } from '../FamilyHandler.js';
import type { MethodTraits } from '../types.js';
import { checkFelt, checkFeltArray, checkObject, invalid } from './starknetParams.js';

/**
 * The Ethereum dev networks a Starknet dev chain may use as its L1, by network name: those of this gateway whose
 * upstream is the embedded anvil (a loopback URL with no credentials in it), the first one the default.
 */
export type L1Networks = ReadonlyMap<string, string>;

/** A row of the postman table: traits, param names in positional order, and how the upstream call is made. */
interface PostmanRow extends MethodTraits {
  readonly params: readonly string[];
  /** Checks the named params and gives those sent upstream (the L1 network named becomes its URL). */
  readonly upstream: (params: Record<string, unknown>, l1: L1Networks) => Record<string, unknown>;
  /** Turns the upstream result into the client's (the L1 node's URL shown as the network's name). */
  readonly finish?: (result: unknown, l1: L1Networks) => unknown;
}

const ETH_ADDRESS = /^0x[0-9a-fA-F]{1,40}$/;
const L1_HASH = /^0x[0-9a-fA-F]{1,64}$/;

const requireValue = (p: Record<string, unknown>, name: string): unknown => {
  if (p[name] === undefined) throw invalid(name, 'a value (required)', undefined);
  return p[name];
};
const checkEthAddress = (v: unknown, at: string, exact = false) => {
  if (typeof v !== 'string' || !(exact ? /^0x[0-9a-fA-F]{40}$/ : ETH_ADDRESS).test(v)) {
    throw invalid(at, exact ? 'an Ethereum address (0x and 40 hex digits)' : 'an Ethereum address (0x hex)', v);
  }
  return v;
};

const write = (credits: number, contracts: (params: unknown) => readonly string[]) =>
  ({ kind: 'write', credits, cache: 'never', devOnly: true, contracts }) as const;
// Loading and flushing act for every contract (any L1 handler runs; any message goes to L1): a key with a contract
// allowlist is refused them. A message to L2 names its target, a message from L2 its sender.
const EVERY_CONTRACT = (): readonly string[] => [];
const named = (name: string) => (params: unknown) => {
  const v = typeof params === 'object' && params !== null ? (params as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? [v] : [];
};

const rows: Readonly<Record<string, PostmanRow>> = {
  devnet_postmanLoad: {
    ...write(300, EVERY_CONTRACT),
    params: ['network_url', 'messaging_contract_address', 'address'],
    upstream(p, l1) {
      const names = [...l1.keys()];
      if (names.length === 0) {
        throw new GatewayError(
          'INVALID_PARAMS',
          'invalid params: network_url: this gateway has no Ethereum dev network on its embedded anvil to use as L1',
        );
      }
      const name = p.network_url ?? names[0];
      if (typeof name !== 'string' || !l1.has(name)) {
        throw invalid(
          'network_url',
          `the name of one of this gateway's Ethereum dev networks (${names.join(', ')}); an L1 URL is not taken through the gateway`,
          p.network_url,
        );
      }
      const address = p.messaging_contract_address ?? p.address;
      if (address !== undefined) checkEthAddress(address, 'messaging_contract_address', true);
      return { network_url: l1.get(name)!, ...(address === undefined ? {} : { messaging_contract_address: address }) };
    },
  },
  devnet_postmanFlush: {
    ...write(300, EVERY_CONTRACT),
    params: ['dry_run'],
    upstream(p) {
      if (p.dry_run !== undefined && typeof p.dry_run !== 'boolean') throw invalid('dry_run', 'a boolean', p.dry_run);
      return p;
    },
    finish(result, l1) {
      if (typeof result !== 'object' || result === null) return result;
      const r = result as Record<string, unknown>;
      for (const [name, url] of l1) {
        if (typeof r.l1_provider === 'string' && r.l1_provider.replace(/\/$/, '') === url.replace(/\/$/, '')) {
          return { ...r, l1_provider: name };
        }
      }
      return result;
    },
  },
  devnet_postmanSendMessageToL2: {
    ...write(80, named('l2_contract_address')),
    params: [
      'l2_contract_address',
      'entry_point_selector',
      'l1_contract_address',
      'payload',
      'paid_fee_on_l1',
      'nonce',
      'l1_transaction_hash',
    ],
    upstream(p) {
      checkFelt(requireValue(p, 'l2_contract_address'), 'l2_contract_address');
      checkFelt(requireValue(p, 'entry_point_selector'), 'entry_point_selector');
      checkEthAddress(requireValue(p, 'l1_contract_address'), 'l1_contract_address');
      checkFeltArray(requireValue(p, 'payload'), 'payload');
      checkFelt(requireValue(p, 'paid_fee_on_l1'), 'paid_fee_on_l1');
      checkFelt(requireValue(p, 'nonce'), 'nonce');
      const h = p.l1_transaction_hash;
      if (h !== undefined && (typeof h !== 'string' || !L1_HASH.test(h))) {
        throw invalid('l1_transaction_hash', 'an L1 transaction hash (0x and up to 64 hex digits)', h);
      }
      return p;
    },
  },
  devnet_postmanConsumeMessageFromL2: {
    ...write(80, named('from_address')),
    params: ['from_address', 'to_address', 'payload'],
    upstream(p) {
      checkFelt(requireValue(p, 'from_address'), 'from_address');
      checkEthAddress(requireValue(p, 'to_address'), 'to_address');
      checkFeltArray(requireValue(p, 'payload'), 'payload');
      return p;
    },
  },
};

/**
 * The upstream call of a postman method (L1 ↔ L2 messaging, `devnet_postman*`) on a dev network, or undefined for
 * any other method. Params are checked before any upstream call (-32602); `devnet_postmanLoad` takes the name of
 * one of `l1` (default: its first) and sends the dev chain that network's URL, never a URL from the client, so a
 * tenant cannot make the dev chain call an address of its choosing; a private key is never taken.
 *
 * @example
 * preparePostmanCall('devnet_postmanLoad', {}, new Map([['eth-devnet', 'http://127.0.0.1:8545']]));
 * // { upstreamMethod: 'devnet_postmanLoad', upstreamParams: { network_url: 'http://127.0.0.1:8545' }, … }
 */
export function preparePostmanCall(method: string, raw: unknown, l1: L1Networks): PreparedCall | undefined {
  const row = Object.hasOwn(rows, method) ? rows[method]! : undefined;
  if (!row) return undefined;
  let params: Record<string, unknown>;
  if (raw === undefined || raw === null) params = {};
  else if (Array.isArray(raw)) {
    if (raw.length > row.params.length) {
      throw new GatewayError(
        'INVALID_PARAMS',
        `invalid params: ${method} takes at most ${row.params.length} params, got ${raw.length}`,
      );
    }
    params = Object.fromEntries(raw.map((v, i) => [row.params[i]!, v]));
  } else params = { ...checkObject(raw, 'params') };
  for (const k of Object.keys(params)) {
    if (k === 'deployer_account_private_key' || k === 'funded_account_private_key') {
      throw invalid(k, "nothing: the postman's L1 transactions come from the L1 node's own account", 'a key');
    }
    if (!row.params.includes(k)) {
      throw new GatewayError(
        'INVALID_PARAMS',
        `invalid params: ${method} has no param "${k}" (it takes ${row.params.join(', ')})`,
      );
    }
  }
  const finish = row.finish;
  return {
    policy: row,
    upstreamMethod: method,
    upstreamParams: row.upstream(params, l1),
    finish: finish ? (result: unknown) => finish(result, l1) : undefined,
  };
}

/**
 * The {@link L1Networks} of a config: its Ethereum dev networks whose first upstream is the embedded anvil, with
 * anvil's URL once it runs.
 *
 * @example
 * l1NetworksOf(config.networks, backends); // Map { 'eth-devnet' => 'http://127.0.0.1:40427' }
 */
export function l1NetworksOf(
  networks: ReadonlyArray<{
    name: string;
    family: string;
    dev: boolean;
    upstreams: ReadonlyArray<{ embedded?: string | undefined }>;
  }>,
  backends: ReadonlyMap<string, { http: string }>,
): L1Networks {
  const out = new Map<string, string>();
  for (const n of networks) {
    const embedded = n.upstreams[0]?.embedded;
    const url = embedded === 'anvil' ? backends.get('anvil')?.http : undefined;
    if (n.family === 'eth' && n.dev && url) out.set(n.name, url);
  }
  return out;
}
