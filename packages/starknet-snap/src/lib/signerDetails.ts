import { num } from 'starknet';
import type { NetworkConfig } from '../config';
import { invalidParam } from './errors';
import { type Params, optCalldata, optResourceBounds, type ResourceBoundsParam } from './params';

/** Transaction version 3, and its query form (for fee estimates: never executable). */
const V3 = 3n;
const V3_QUERY = 2n ** 128n + 3n;

/** The v3 fields every signed transaction carries, checked. */
export interface V3Details {
  chainId: string;
  nonce: string;
  version: '0x3' | '0x100000000000000000000000000000003';
  /** True for the query version: a signature for a fee estimate, which the chain never executes. */
  query: boolean;
  resourceBounds: ResourceBoundsParam;
  tip: string;
  paymasterData: string[];
  accountDeploymentData: string[];
  nonceDataAvailabilityMode: 'L1' | 'L2';
  feeDataAvailabilityMode: 'L1' | 'L2';
}

const NUM = /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/;

function number(d: Params, key: string, required: boolean): string {
  const v = d[key];
  if ((v === undefined || v === null) && !required) return '0x0';
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !NUM.test(s))
    throw invalidParam(`details.${key}`, 'must be a number (decimal or 0x-hex)');
  return num.toHex(s);
}

function mode(d: Params, key: string): 'L1' | 'L2' {
  const v = d[key] ?? 'L1';
  if (v === 'L1' || v === 'L2' || v === 0 || v === 1) return v === 'L2' || v === 1 ? 'L2' : 'L1';
  throw invalidParam(`details.${key}`, 'must be "L1" or "L2"');
}

/**
 * Reads and checks the v3 transaction details a dApp's signer passes (starknet.js `*SignerDetails`): the chain must
 * be the request's network (a signature is never made for another chain), the version 3 (or its query form), the
 * resource bounds complete.
 *
 * @param p - The request params.
 * @param net - The request's network.
 * @returns The details object (for fields specific to one transaction type) and its checked v3 fields.
 */
export function v3Details(p: Params, net: NetworkConfig): { raw: Params; v3: V3Details } {
  const d = p.details;
  if (!d || typeof d !== 'object' || Array.isArray(d))
    throw invalidParam('details', 'must be the transaction details object');
  const raw = d as Params;
  const chainId = typeof raw.chainId === 'string' ? raw.chainId.toLowerCase() : undefined;
  if (chainId === undefined || BigInt(chainId) !== BigInt(net.chainId)) {
    throw invalidParam('details.chainId', `must be ${net.chainId} (${net.name}), the network of this request`);
  }
  const version = BigInt(number(raw, 'version', true));
  if (version !== V3 && version !== V3_QUERY) {
    throw invalidParam('details.version', 'must be 0x3: the snap signs v3 transactions only');
  }
  const resourceBounds = optResourceBounds(raw, 'resourceBounds');
  if (!resourceBounds) throw invalidParam('details.resourceBounds', 'is required');
  return {
    raw,
    v3: {
      chainId: net.chainId,
      nonce: number(raw, 'nonce', true),
      version: version === V3 ? '0x3' : '0x100000000000000000000000000000003',
      query: version === V3_QUERY,
      resourceBounds,
      tip: number(raw, 'tip', false),
      paymasterData: optCalldata(raw, 'paymasterData'),
      accountDeploymentData: optCalldata(raw, 'accountDeploymentData'),
      nonceDataAvailabilityMode: mode(raw, 'nonceDataAvailabilityMode'),
      feeDataAvailabilityMode: mode(raw, 'feeDataAvailabilityMode'),
    },
  };
}

/**
 * The most a set of resource bounds lets the transaction pay.
 *
 * @param rb - The bounds.
 * @returns Sum of amount x price over the three resources.
 */
export function maxFeeOf(rb: ResourceBoundsParam): bigint {
  return (
    rb.l1_gas.max_amount * rb.l1_gas.max_price_per_unit +
    rb.l2_gas.max_amount * rb.l2_gas.max_price_per_unit +
    rb.l1_data_gas.max_amount * rb.l1_data_gas.max_price_per_unit
  );
}
