/** Builds the Sierra CONTRACT_CLASS served for a native class, and computes Sierra class hashes. */
import { poseidon, selector, snKeccak } from '../crypto/hashes.js';
import { shortString, toHex } from '../felt.js';
import type { AbiParam, NativeClassDef } from './types.js';

/** A Sierra entry point as served over RPC. */
export interface SierraEntryPoint {
  selector: string;
  function_idx: number;
}

/** A Sierra contract class as served over RPC (abi is a string). */
export interface SierraContractClass {
  sierra_program: string[];
  contract_class_version: string;
  entry_points_by_type: {
    CONSTRUCTOR: SierraEntryPoint[];
    EXTERNAL: SierraEntryPoint[];
    L1_HANDLER: SierraEntryPoint[];
  };
  abi: string;
}

function hashEntryPoints(eps: readonly SierraEntryPoint[]): bigint {
  return poseidon(eps.flatMap((e) => [BigInt(e.selector), BigInt(e.function_idx)]));
}

/**
 * The class hash of a Sierra class, as the protocol computes it: Poseidon over the class version,
 * the entry points of each type, the sn_keccak of the ABI string and the Poseidon of the program.
 */
export function computeSierraClassHash(cls: SierraContractClass): bigint {
  return poseidon([
    shortString(`CONTRACT_CLASS_V${cls.contract_class_version}`),
    hashEntryPoints(cls.entry_points_by_type.EXTERNAL),
    hashEntryPoints(cls.entry_points_by_type.L1_HANDLER),
    hashEntryPoints(cls.entry_points_by_type.CONSTRUCTOR),
    snKeccak(cls.abi),
    poseidon(cls.sierra_program.map((x) => BigInt(x))),
  ]);
}

/** Format an ABI the way starknet.js hashes it (`", "` and `": "` outside strings). */
export function formatAbi(abi: unknown): string {
  const json = JSON.stringify(abi);
  let inside = false;
  let out = '';
  for (let i = 0; i < json.length; i++) {
    const ch = json[i]!;
    if (ch === '"' && json[i - 1] !== '\\') inside = !inside;
    if (!inside && ch === ':') out += ': ';
    else if (!inside && ch === ',') out += ', ';
    else out += ch;
  }
  return out;
}

const params = (ps: readonly AbiParam[]) => ps.map(([name, type]) => ({ name, type }));

function buildAbi(def: NativeClassDef): unknown[] {
  const abi: unknown[] = [
    { type: 'impl', name: 'NativeImpl', interface_name: def.interfaceName },
    {
      type: 'struct',
      name: 'core::integer::u256',
      members: [
        { name: 'low', type: 'core::integer::u128' },
        { name: 'high', type: 'core::integer::u128' },
      ],
    },
    {
      type: 'enum',
      name: 'core::bool',
      variants: [
        { name: 'False', type: '()' },
        { name: 'True', type: '()' },
      ],
    },
  ];
  if (def.account) {
    abi.push({
      type: 'struct',
      name: 'core::starknet::account::Call',
      members: [
        { name: 'to', type: 'core::starknet::contract_address::ContractAddress' },
        { name: 'selector', type: 'core::felt252' },
        { name: 'calldata', type: 'core::array::Span::<core::felt252>' },
      ],
    });
  }
  if (def.functions.some((f) => f.outputs.includes('nodegate::argent::Version'))) {
    abi.push({
      type: 'struct',
      name: 'nodegate::argent::Version',
      members: [
        { name: 'major', type: 'core::integer::u8' },
        { name: 'minor', type: 'core::integer::u8' },
        { name: 'patch', type: 'core::integer::u8' },
      ],
    });
  }
  abi.push({
    type: 'interface',
    name: def.interfaceName,
    items: def.functions.map((f) => ({
      type: 'function',
      name: f.name,
      inputs: params(f.inputs),
      outputs: f.outputs.map((type) => ({ type })),
      state_mutability: f.mutability,
    })),
  });
  abi.push({ type: 'constructor', name: 'constructor', inputs: params(def.constructorInputs) });
  for (const h of def.l1Handlers ?? []) {
    abi.push({ type: 'l1_handler', name: h.name, inputs: params(h.inputs), outputs: [], state_mutability: 'external' });
  }
  const eventNames: string[] = [];
  for (const e of def.events ?? []) {
    const name = `${def.name}::${e.name}`;
    eventNames.push(name);
    abi.push({
      type: 'event',
      name,
      kind: 'struct',
      members: e.members.map(([n, type, kind]) => ({ name: n, type, kind })),
    });
  }
  abi.push({
    type: 'event',
    name: `${def.name}::Event`,
    kind: 'enum',
    variants: eventNames.map((n) => ({ name: n.split('::').pop(), type: n, kind: 'nested' })),
  });
  return abi;
}

function entryPoints(names: string[], offset: number): SierraEntryPoint[] {
  return names
    .map((n, i) => ({ selector: toHex(selector(n)), function_idx: offset + i }))
    .sort((a, b) => (BigInt(a.selector) < BigInt(b.selector) ? -1 : 1));
}

/**
 * The Sierra class served for a native class. The program starts with the Sierra version
 * header (1.7.0, compiler 2.11.0) followed by felts identifying the native implementation; it is
 * well-formed as data but is not an executable Sierra program.
 */
export function buildNativeSierraClass(def: NativeClassDef): SierraContractClass {
  const externals = def.functions.map((f) => f.name);
  const l1 = (def.l1Handlers ?? []).map((f) => f.name);
  const nameChunks: bigint[] = [];
  for (let i = 0; i < def.name.length; i += 31) nameChunks.push(shortString(def.name.slice(i, i + 31)));
  const program = [1n, 7n, 0n, 2n, 11n, 0n, shortString('nodegate-native'), ...nameChunks, ...externals.map(selector)];
  return {
    sierra_program: program.map(toHex),
    contract_class_version: '0.1.0',
    entry_points_by_type: {
      CONSTRUCTOR: def.construct
        ? [{ selector: toHex(selector('constructor')), function_idx: externals.length + l1.length }]
        : [],
      EXTERNAL: entryPoints(externals, 0),
      L1_HANDLER: entryPoints(l1, externals.length),
    },
    abi: formatAbi(buildAbi(def)),
  };
}
