import { typedData, type TypedData } from 'starknet';
import { invalidParam } from './errors';
import type { Params } from './params';

/**
 * Parses the `typedDataMessage` param (a JSON string of SNIP-12 typed data) and checks it can be hashed.
 *
 * @param p - The params.
 * @param name - The parameter name.
 * @param account - The signer address the hash is computed for.
 * @returns The typed data and its message hash.
 */
export function parseTypedData(p: Params, name: string, account: string): { data: TypedData; hash: string } {
  const raw = p[name];
  let data: unknown = raw;
  if (typeof raw === 'string') {
    try {
      data = JSON.parse(raw);
    } catch {
      throw invalidParam(name, 'must be a JSON string of SNIP-12 typed data (it does not parse as JSON)');
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw invalidParam(name, 'must be a JSON string of SNIP-12 typed data with types, primaryType, domain and message');
  }
  const td = data as TypedData;
  if (!td.types || !td.primaryType || !td.domain || !td.message) {
    throw invalidParam(name, 'must have types, primaryType, domain and message (SNIP-12 typed data)');
  }
  try {
    return { data: td, hash: typedData.getMessageHash(td, account) };
  } catch (e) {
    throw invalidParam(name, `cannot be hashed as SNIP-12 typed data: ${e instanceof Error ? e.message : String(e)}`);
  }
}
