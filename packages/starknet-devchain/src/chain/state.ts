/** Chain state: versioned by block number, with write overlays for transactional execution. */
import type { SierraContractClass } from '../contracts/sierraClass.js';

/** A declared class: its served definition, compiled class hash and declaring block. */
export interface DeclaredClass {
  sierra: SierraContractClass;
  compiledClassHash: bigint;
  block: number;
}

/** Read access to state. */
export interface StateReader {
  getStorage(address: bigint, key: bigint): bigint;
  getNonce(address: bigint): bigint;
  getClassHashAt(address: bigint): bigint | undefined;
  getDeclared(classHash: bigint): DeclaredClass | undefined;
}

/** The writes of one transaction or block: the state diff. */
export interface StateDiff {
  storage: Map<bigint, Map<bigint, bigint>>;
  nonces: Map<bigint, bigint>;
  deployed: Map<bigint, bigint>;
  replaced: Map<bigint, bigint>;
  declared: Map<bigint, { sierra: SierraContractClass; compiledClassHash: bigint }>;
}

/** An empty state diff. */
export function emptyDiff(): StateDiff {
  return { storage: new Map(), nonces: new Map(), deployed: new Map(), replaced: new Map(), declared: new Map() };
}

/** Values of one key over blocks (ascending), for reads at any block. */
class History<V> {
  readonly blocks: number[] = [];
  readonly values: V[] = [];

  set(block: number, value: V): void {
    const last = this.blocks.length - 1;
    if (last >= 0 && this.blocks[last] === block) this.values[last] = value;
    else {
      this.blocks.push(block);
      this.values.push(value);
    }
  }

  get(block: number): V | undefined {
    const i = this.indexAt(block);
    return i >= 0 ? this.values[i] : undefined;
  }

  /** The block that wrote the version in effect at `block` (undefined: never written). */
  writtenAt(block: number): number | undefined {
    const i = this.indexAt(block);
    return i >= 0 ? this.blocks[i] : undefined;
  }

  private indexAt(block: number): number {
    const bs = this.blocks;
    const last = bs.length - 1;
    if (last >= 0 && bs[last]! <= block) return last;
    let lo = 0;
    let hi = last;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (bs[mid]! <= block) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Drop entries above `block` (used when the pre-confirmed block is discarded). */
  truncate(block: number): void {
    while (this.blocks.length > 0 && this.blocks[this.blocks.length - 1]! > block) {
      this.blocks.pop();
      this.values.pop();
    }
  }
}

const skey = (a: bigint, k: bigint) => `${a.toString(16)}:${k.toString(16)}`;

/** The committed state of the chain, readable at any block number. */
export class VersionedState {
  /**
   * @param base what a key never written here reads as: a forked chain's origin state at the fork block (absent:
   * zero, no contract, no class).
   */
  constructor(private readonly base?: StateReader) {}

  private readonly storage = new Map<string, History<bigint>>();
  private readonly nonces = new Map<bigint, History<bigint>>();
  private readonly classes = new Map<bigint, History<bigint>>();
  private readonly declared = new Map<bigint, DeclaredClass>();

  /** Apply a diff as of `block`. */
  apply(diff: StateDiff, block: number): void {
    for (const [addr, slots] of diff.storage) {
      for (const [k, v] of slots) {
        const key = skey(addr, k);
        let h = this.storage.get(key);
        if (!h) {
          h = new History<bigint>();
          this.storage.set(key, h);
        }
        h.set(block, v);
      }
    }
    for (const [addr, n] of diff.nonces) this.history(this.nonces, addr).set(block, n);
    for (const [addr, c] of diff.deployed) this.history(this.classes, addr).set(block, c);
    for (const [addr, c] of diff.replaced) this.history(this.classes, addr).set(block, c);
    for (const [hash, d] of diff.declared) {
      if (!this.declared.has(hash)) this.declared.set(hash, { ...d, block });
    }
  }

  private history(map: Map<bigint, History<bigint>>, key: bigint): History<bigint> {
    let h = map.get(key);
    if (!h) {
      h = new History<bigint>();
      map.set(key, h);
    }
    return h;
  }

  /** The block that last wrote a storage slot, as of `block` (undefined: never written). */
  storageWrittenAt(address: bigint, key: bigint, block: number): number | undefined {
    return this.storage.get(skey(address, key))?.writtenAt(block);
  }

  /** A reader of the state as of `block` (inclusive). */
  at(block: number): StateReader {
    const base = this.base;
    return {
      getStorage: (a, k) => this.storage.get(skey(a, k))?.get(block) ?? base?.getStorage(a, k) ?? 0n,
      getNonce: (a) => this.nonces.get(a)?.get(block) ?? base?.getNonce(a) ?? 0n,
      getClassHashAt: (a) => this.classes.get(a)?.get(block) ?? base?.getClassHashAt(a),
      getDeclared: (h) => {
        const d = this.declared.get(h);
        return d && d.block <= block ? d : base?.getDeclared(h);
      },
    };
  }

  /** Forget every write above `block`. */
  truncate(block: number): void {
    for (const h of this.storage.values()) h.truncate(block);
    for (const h of this.nonces.values()) h.truncate(block);
    for (const h of this.classes.values()) h.truncate(block);
    for (const [k, d] of this.declared) if (d.block > block) this.declared.delete(k);
  }
}

/** Buffered writes over a reader; `commitTo` merges them into a parent overlay. */
export class StateOverlay implements StateReader {
  readonly diff: StateDiff = emptyDiff();

  constructor(private readonly base: StateReader) {}

  getStorage(address: bigint, key: bigint): bigint {
    const v = this.diff.storage.get(address)?.get(key);
    return v ?? this.base.getStorage(address, key);
  }

  getNonce(address: bigint): bigint {
    return this.diff.nonces.get(address) ?? this.base.getNonce(address);
  }

  getClassHashAt(address: bigint): bigint | undefined {
    return this.diff.replaced.get(address) ?? this.diff.deployed.get(address) ?? this.base.getClassHashAt(address);
  }

  getDeclared(classHash: bigint): DeclaredClass | undefined {
    const d = this.diff.declared.get(classHash);
    return d ? { ...d, block: Number.MAX_SAFE_INTEGER } : this.base.getDeclared(classHash);
  }

  setStorage(address: bigint, key: bigint, value: bigint): void {
    let slots = this.diff.storage.get(address);
    if (!slots) {
      slots = new Map();
      this.diff.storage.set(address, slots);
    }
    slots.set(key, value);
  }

  setNonce(address: bigint, nonce: bigint): void {
    this.diff.nonces.set(address, nonce);
  }

  deploy(address: bigint, classHash: bigint): void {
    this.diff.deployed.set(address, classHash);
  }

  replaceClass(address: bigint, classHash: bigint): void {
    if (this.diff.deployed.has(address)) this.diff.deployed.set(address, classHash);
    else this.diff.replaced.set(address, classHash);
  }

  declare(classHash: bigint, sierra: SierraContractClass, compiledClassHash: bigint): void {
    this.diff.declared.set(classHash, { sierra, compiledClassHash });
  }

  /** Merge these writes into `parent`. */
  commitTo(parent: StateOverlay): void {
    mergeDiff(parent.diff, this.diff);
  }
}

/** Merge `src` into `dst` (later writes win). */
export function mergeDiff(dst: StateDiff, src: StateDiff): void {
  for (const [addr, slots] of src.storage) {
    let d = dst.storage.get(addr);
    if (!d) {
      d = new Map();
      dst.storage.set(addr, d);
    }
    for (const [k, v] of slots) d.set(k, v);
  }
  for (const [a, n] of src.nonces) dst.nonces.set(a, n);
  for (const [a, c] of src.deployed) dst.deployed.set(a, c);
  for (const [a, c] of src.replaced) {
    if (dst.deployed.has(a)) dst.deployed.set(a, c);
    else dst.replaced.set(a, c);
  }
  for (const [h, d] of src.declared) dst.declared.set(h, d);
}
