import {
  type StarknetSpecMethodName,
  type StarknetSpecParamFields,
  type StarknetTxnType,
  starknetSpecParamFields,
} from '@nodegate/starknet-spec';
import { checkObject, invalid } from './starknetParams.js';

/** The fields only version 3 transactions carry (the dev chain also takes the older versions, outside spec 0.10). */
const V3_ONLY = new Set([
  'resource_bounds',
  'tip',
  'paymaster_data',
  'account_deployment_data',
  'nonce_data_availability_mode',
  'fee_data_availability_mode',
]);
const QUERY_BIT = 2n ** 128n;
/** Version 3, or its query version (2^128 + 3). */
function isV3(version: unknown): boolean {
  if (typeof version !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(version)) return false;
  const v = BigInt(version);
  return v === 3n || v === QUERY_BIT + 3n;
}

function requireAll(o: Record<string, unknown>, fields: readonly string[], at: string): void {
  for (const f of fields) if (o[f] === undefined) throw invalid(`${at}.${f}`, 'a value (required)', undefined);
}

function checkOne(value: unknown, rule: StarknetSpecParamFields, at: string): void {
  const o = checkObject(value, at);
  if (rule.kind === 'object') {
    requireAll(o, rule.required, at);
    return;
  }
  const types = Object.keys(rule.required) as StarknetTxnType[];
  if (o.type === undefined) throw invalid(`${at}.type`, `one of ${types.join(', ')} (required)`, undefined);
  const fields = rule.required[o.type as StarknetTxnType];
  if (!fields) throw invalid(`${at}.type`, `one of ${types.join(', ')}`, o.type);
  if (o.version === undefined) throw invalid(`${at}.version`, 'a hex version string (required)', undefined);
  // a version 1 or 2 transaction (outside spec 0.10): the same fields but the version 3 fee fields, and a max fee
  requireAll(o, isV3(o.version) ? fields : [...fields.filter((f) => !V3_ONLY.has(f)), 'max_fee'], at);
}

/**
 * Requires the fields the specification requires inside the object params of `method` (the table
 * `starknetSpecParamFields`, derived from the published documents), naming the first one missing
 * with -32602; fields the specification leaves optional are never required here. Params absent
 * (optional ones) are not checked; a param of the wrong shape is refused.
 *
 * @example
 * requireSpecFields('getEvents', { filter: { chunk_size: 10 } }); // fine: from_block/to_block are optional
 * requireSpecFields('getEvents', { filter: {} }); // throws: filter.chunk_size: expected a value (required)
 */
export function requireSpecFields(method: StarknetSpecMethodName, params: Record<string, unknown>): void {
  const rules = starknetSpecParamFields[method];
  if (!rules) return;
  for (const [name, rule] of Object.entries(rules)) {
    const value = params[name];
    if (value === undefined) continue;
    if (!rule.each) {
      checkOne(value, rule, name);
      continue;
    }
    if (!Array.isArray(value)) throw invalid(name, 'an array', value);
    for (const [i, item] of value.entries()) checkOne(item, rule, `${name}[${i}]`);
  }
}
