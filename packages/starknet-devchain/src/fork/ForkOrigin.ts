/**
 * The fork origin of a forked dev chain: the state of another Starknet node at the fork block, read on demand and
 * kept (a value read once is never asked again: the origin's state at a mined block does not change), and the
 * requests the local chain cannot answer (the origin's blocks and transactions) forwarded to it.
 */
import type { DeclaredClass, StateReader } from '../chain/state.js';
import { parseContractClass } from '../chain/parseContractClass.js';
import { DevchainError, ErrorCode, type ErrorCodeValue } from '../errors.js';
import { toHex } from '../felt.js';
import { shownL1Url } from '../messaging/l1/createL1Client.js';
import { createSyncRpcClient, type SyncRpcClient } from './createSyncRpcClient.js';

/** Where a chain was forked: the origin's JSON-RPC URL and the block the local chain builds on. */
export interface ForkPoint {
  url: string;
  blockNumber: number;
  blockHash: bigint;
  /** The fork block's state root (the local genesis block's parent root). */
  stateRoot: bigint;
  timestamp: number;
}

/** How many state reads went to the origin, and how many were answered from what it said before. */
export interface ForkReadCounts {
  fetched: number;
  cached: number;
}

const CONTRACT_NOT_FOUND = 20;
const CLASS_HASH_NOT_FOUND = 28;
const BLOCK_NOT_FOUND = 24;

/**
 * The origin's state at the fork block, as a synchronous {@link StateReader} (each first read blocks on one
 * JSON-RPC call; see `createSyncRpcClient.ts`), plus forwarding.
 *
 * @example
 * const origin = new ForkOrigin(point);
 * origin.getStorage(token, slot); // asked once, then kept
 */
export class ForkOrigin implements StateReader {
  readonly point: ForkPoint;
  /** The origin's URL without credentials (for answers and errors). */
  readonly shownUrl: string;
  private readonly client: SyncRpcClient;
  private readonly storage = new Map<string, bigint>();
  private readonly nonces = new Map<bigint, bigint>();
  private readonly classAt = new Map<bigint, bigint | null>();
  private readonly classes = new Map<bigint, DeclaredClass | null>();
  private readonly hashes = new Map<number, bigint | null>();
  private readonly counts: ForkReadCounts = { fetched: 0, cached: 0 };

  constructor(point: ForkPoint) {
    this.point = point;
    this.shownUrl = shownL1Url(new URL(point.url));
    this.client = createSyncRpcClient(point.url);
  }

  /** State reads so far: sent to the origin, and answered from the local copy. */
  get readCounts(): ForkReadCounts {
    return { ...this.counts };
  }

  private get at() {
    return { block_number: this.point.blockNumber };
  }

  /** One call to the origin: its result, undefined for the `absent` error code, an error otherwise. */
  private read(method: string, params: Record<string, unknown>, absent?: number): unknown {
    this.counts.fetched++;
    const outcome = this.client.call(method, params);
    if ('result' in outcome) return outcome.result;
    if ('error' in outcome && outcome.error.code === absent) return undefined;
    const why = 'error' in outcome ? `${outcome.error.code} ${outcome.error.message}` : outcome.failure;
    throw new DevchainError(ErrorCode.DEVNET_ERROR, {
      message: `the fork origin ${this.shownUrl} could not answer ${method}: ${why}`,
    });
  }

  private cachedOr<K, V>(map: Map<K, V>, key: K, fetch: () => V): V {
    if (map.has(key)) {
      this.counts.cached++;
      return map.get(key) as V;
    }
    const value = fetch();
    map.set(key, value);
    return value;
  }

  getStorage(address: bigint, key: bigint): bigint {
    return this.cachedOr(this.storage, `${address.toString(16)}:${key.toString(16)}`, () => {
      const v = this.read(
        'starknet_getStorageAt',
        { contract_address: toHex(address), key: toHex(key), block_id: this.at },
        CONTRACT_NOT_FOUND,
      );
      return v === undefined ? 0n : BigInt(v as string);
    });
  }

  getNonce(address: bigint): bigint {
    return this.cachedOr(this.nonces, address, () => {
      const v = this.read(
        'starknet_getNonce',
        { block_id: this.at, contract_address: toHex(address) },
        CONTRACT_NOT_FOUND,
      );
      return v === undefined ? 0n : BigInt(v as string);
    });
  }

  getClassHashAt(address: bigint): bigint | undefined {
    const v = this.cachedOr(this.classAt, address, () => {
      const h = this.read(
        'starknet_getClassHashAt',
        { block_id: this.at, contract_address: toHex(address) },
        CONTRACT_NOT_FOUND,
      );
      return h === undefined ? null : BigInt(h as string);
    });
    return v ?? undefined;
  }

  getDeclared(classHash: bigint): DeclaredClass | undefined {
    const v = this.cachedOr(this.classes, classHash, () => {
      const cls = this.read(
        'starknet_getClass',
        { block_id: this.at, class_hash: toHex(classHash) },
        CLASS_HASH_NOT_FOUND,
      );
      if (cls === undefined) return null;
      try {
        // the compiled class hash of an origin class is in no local state diff: it is not kept
        return { sierra: parseContractClass(cls), compiledClassHash: 0n, block: this.point.blockNumber };
      } catch {
        return null; // a Cairo 0 class: the dev chain cannot run it
      }
    });
    return v ?? undefined;
  }

  /** The hash of the origin's block `n` (at or before the fork block), for `get_block_hash_syscall`. */
  blockHash(n: number): bigint | undefined {
    if (n > this.point.blockNumber || n < 0) return undefined;
    const v = this.cachedOr(this.hashes, n, () => {
      const block = this.read('starknet_getBlockWithTxHashes', { block_id: { block_number: n } }, BLOCK_NOT_FOUND) as
        | { block_hash?: string }
        | undefined;
      return block?.block_hash === undefined ? null : BigInt(block.block_hash);
    });
    return v ?? undefined;
  }

  /**
   * Sends a request to the origin as it is (asynchronously): its result, or a DevchainError with the origin's code,
   * message and data.
   */
  async request(method: string, params: unknown): Promise<unknown> {
    let body: { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    try {
      const res = await fetch(this.point.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal: AbortSignal.timeout(30_000),
      });
      body = (await res.json()) as typeof body;
    } catch {
      throw new DevchainError(ErrorCode.DEVNET_ERROR, {
        message: `the fork origin ${this.shownUrl} did not answer ${method}`,
      });
    }
    if (body.error) {
      const { code, message, data } = body.error;
      throw new DevchainError(code as ErrorCodeValue, { message, ...(data === undefined ? {} : { data }) });
    }
    return body.result;
  }

  /** Ends the origin's reader thread. */
  close(): void {
    this.client.close();
  }
}
