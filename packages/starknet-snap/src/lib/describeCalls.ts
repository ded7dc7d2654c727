import type { NetworkConfig } from '../config';
import { providerFor } from './chain';
import type { Field } from './dialogs';
import { formatUnits } from './format';

/** One call as the snap sends it. */
export interface SnapCall {
  contractAddress: string;
  entrypoint: string;
  calldata: string[];
}

interface AbiInput {
  name: string;
  type: string;
}

type AbiFunctions = Map<string, AbiInput[]>;

// ABIs by network and contract, for the life of the snap process (a class at an address changes only on upgrade,
// and a stale ABI only changes how a call is shown, never what is signed). A failed read is not kept: the next
// dialog asks the node again.
const abis = new Map<string, Promise<AbiFunctions | undefined>>();

function functionsOf(abi: unknown): AbiFunctions {
  const out: AbiFunctions = new Map();
  const visit = (items: unknown) => {
    if (!Array.isArray(items)) return;
    for (const item of items as Record<string, unknown>[]) {
      if (item.type === 'function' && typeof item.name === 'string' && Array.isArray(item.inputs)) {
        out.set(item.name, item.inputs as AbiInput[]);
      } else if (item.type === 'interface') {
        visit(item.items);
      }
    }
  };
  visit(typeof abi === 'string' ? JSON.parse(abi) : abi);
  return out;
}

async function abiAt(net: NetworkConfig, address: string): Promise<AbiFunctions | undefined> {
  const key = `${net.chainId}:${BigInt(address)}`;
  const cached = abis.get(key);
  if (cached) return cached;
  const found: Promise<AbiFunctions | undefined> = providerFor(net)
    .getClassAt(address, 'pre_confirmed')
    .then((cls) => functionsOf((cls as { abi?: unknown }).abi))
    .catch(() => {
      if (abis.get(key) === found) abis.delete(key);
      return undefined;
    });
  abis.set(key, found);
  return found;
}

const SINGLE =
  /^(core::felt252|felt252|core::starknet::contract_address::ContractAddress|ContractAddress|core::starknet::class_hash::ClassHash|core::bool|core::integer::u(8|16|32|64|128)|core::integer::i(8|16|32|64|128)|u(8|16|32|64|128))$/;
const U256 = /^(core::integer::u256|u256)$/;
const SPAN = /^core::(array::(Span|Array)|array::Array)::<(.+)>$/;

/**
 * Reads the calldata of a call as named arguments with the function's ABI inputs. Types it cannot read (structs,
 * enums, byte arrays) make it give up, so the caller falls back to the raw felts: it never shows a wrong reading.
 */
function decodeArgs(inputs: readonly AbiInput[], calldata: readonly string[]): Field[] | undefined {
  const fields: Field[] = [];
  let at = 0;
  const take = () => {
    const v = calldata[at++];
    if (v === undefined) throw new Error('short calldata');
    return BigInt(v);
  };
  try {
    for (const input of inputs) {
      if (SINGLE.test(input.type)) {
        const v = take();
        fields.push([input.name, input.type.endsWith('bool') ? String(v === 1n) : `0x${v.toString(16)}`]);
      } else if (U256.test(input.type)) {
        const v = take() + (take() << 128n);
        const amountLike = /amount|value|balance/i.test(input.name);
        fields.push([input.name, amountLike ? `${v} (${formatUnits(v, 'at 18 decimals')})` : v.toString()]);
      } else {
        const span = SPAN.exec(input.type);
        if (!span || !SINGLE.test(span[3] ?? '')) return undefined;
        const n = Number(take());
        const items = Array.from({ length: n }, () => `0x${take().toString(16)}`);
        fields.push([input.name, `[${items.join(', ')}]`]);
      }
    }
  } catch {
    return undefined;
  }
  return at === calldata.length ? fields : undefined;
}

/**
 * Dialog fields for the calls of a transaction: per call the contract and the function, then its arguments decoded
 * with the contract's ABI when the node has it (named, u256 amounts joined), else the raw call data.
 *
 * @param net - The network (the ABI is read from its node).
 * @param calls - The calls.
 * @returns The fields.
 * @example
 * ```ts
 * await describeCalls(net, [{ contractAddress: STRK, entrypoint: 'transfer', calldata: ['0x1', '0x64', '0x0'] }]);
 * // [['Call 1', 'transfer on 0x4718…'], ['recipient', '0x1'], ['amount', '100 (…)']]
 * ```
 */
export async function describeCalls(net: NetworkConfig, calls: readonly SnapCall[]): Promise<Field[]> {
  const fields: Field[] = [];
  for (const [i, call] of calls.entries()) {
    fields.push([calls.length > 1 ? `Call ${i + 1}` : 'Call', `${call.entrypoint} on ${call.contractAddress}`]);
    const inputs = (await abiAt(net, call.contractAddress))?.get(call.entrypoint);
    const args = inputs ? decodeArgs(inputs, call.calldata) : undefined;
    if (args) fields.push(...args);
    else if (call.calldata.length) fields.push(['Call data', call.calldata.join(', ')]);
  }
  return fields;
}
