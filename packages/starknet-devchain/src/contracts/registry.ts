/** The table of native classes, keyed by the class hash of their served Sierra class. */
import { selector } from '../crypto/hashes.js';
import { argentAccountV030Class, argentAccountV040Class } from './argentAccount.js';
import { erc20Class } from './erc20.js';
import { ozAccountClass } from './ozAccount.js';
import { buildNativeSierraClass, computeSierraClassHash, type SierraContractClass } from './sierraClass.js';
import type { EntryPoint, NativeClassDef } from './types.js';
import { udcClass } from './udc.js';

/** A native class ready for execution: its served class, hash and entry points by selector. */
export interface NativeClass {
  def: NativeClassDef;
  sierra: SierraContractClass;
  classHash: bigint;
  externals: Map<bigint, EntryPoint>;
  l1Handlers: Map<bigint, EntryPoint>;
}

function compile(def: NativeClassDef): NativeClass {
  const sierra = buildNativeSierraClass(def);
  return {
    def,
    sierra,
    classHash: computeSierraClassHash(sierra),
    externals: new Map(def.functions.map((f) => [selector(f.name), f.run])),
    l1Handlers: new Map((def.l1Handlers ?? []).map((f) => [selector(f.name), f.run])),
  };
}

/** All native classes by role. */
export const nativeClasses = {
  erc20: compile(erc20Class),
  ozAccount: compile(ozAccountClass),
  argentV030: compile(argentAccountV030Class),
  argentV040: compile(argentAccountV040Class),
  udc: compile(udcClass),
} as const;

const byHash = new Map<bigint, NativeClass>(Object.values(nativeClasses).map((c) => [c.classHash, c]));

/** The native class with this class hash, if any. */
export function nativeClassByHash(classHash: bigint): NativeClass | undefined {
  return byHash.get(classHash);
}
