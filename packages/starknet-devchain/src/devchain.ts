/** A running dev chain: the chain, its data directory, mining mode and devnet operations. */
import { mkdirSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Chain, type ChainConfig, type ChainRecord } from './chain/Chain.js';
import { DataDir, readRecords, writeRecords } from './chain/persistence.js';
import type { Tx } from './chain/transaction.js';
import { Impersonation } from './chain/Impersonation.js';
import { DevchainError, ErrorCode, unsupportedAction } from './errors.js';
import { lockDataDir } from './lockDataDir.js';
import { ForkOrigin } from './fork/ForkOrigin.js';
import { Postman } from './messaging/Postman.js';
import { runL1Message } from './messaging/runL1Message.js';
import { seedWelcome } from './welcome/seedWelcome.js';

/** Options of a dev chain instance (see `startDevchain`). */
export interface DevchainNodeOptions {
  config: ChainConfig;
  dataDir?: string | undefined;
  /**
   * Mine a block on this interval (ms), empty or not, instead of one block per transaction:
   * transactions wait in the pre-confirmed block until the next one.
   */
  blockIntervalMs?: number | undefined;
  /** Mine only on devnet_createBlock (transactions wait in the pre-confirmed block). */
  mineOnDemand?: boolean | undefined;
  /**
   * A chain created here (not loaded from the data directory) starts with the welcome state
   * (`seedWelcome`); give it a genesis at `WELCOME_TIMESTAMPS.genesis` for the documented hashes.
   */
  welcome?: boolean | undefined;
}

/** Owns the chain and everything around it that the RPC methods need. */
export class DevchainNode {
  chain: Chain;
  private records: ChainRecord[] = [];
  private readonly dataDir: DataDir | undefined;
  private readonly dumpDir: string | undefined;
  private readonly autoMine: boolean;
  private timer: NodeJS.Timeout | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly releaseLock: (() => void) | undefined;
  private origin: ForkOrigin | undefined;
  /** Impersonated senders: shared by the chains this node makes (kept by abortBlocks, new on restart and load). */
  private impersonation = new Impersonation();

  constructor(options: DevchainNodeOptions) {
    this.dataDir = options.dataDir ? new DataDir(options.dataDir) : undefined;
    // one dev chain per data directory: a second one would append its own blocks to the same records
    this.releaseLock = options.dataDir ? lockDataDir(options.dataDir) : undefined;
    this.dumpDir = options.dataDir ? resolve(options.dataDir, 'dumps') : undefined;
    this.autoMine = !options.blockIntervalMs && !options.mineOnDemand;
    const stored = this.dataDir?.load();
    if (stored) {
      const first = stored[0] as Extract<ChainRecord, { kind: 'config' }>;
      this.chain = this.newChain(first.config);
      this.records = [...stored];
      this.chain.replay(stored);
    } else {
      this.chain = this.newChain(options.config);
      this.chain.initGenesis();
      if (options.welcome) seedWelcome(this.chain);
      this.flush();
    }
    if (options.blockIntervalMs) {
      // a block every interval, empty or not (as anvil's --block-time and devnet-rs's
      // --block-generation-on <interval>): a client following new heads sees the chain move
      this.timer = setInterval(() => this.chain.mine(), options.blockIntervalMs);
      this.timer.unref();
    }
    this.flushTimer = setInterval(() => this.flush(), 200);
    this.flushTimer.unref();
  }

  private newChain(config: ChainConfig): Chain {
    const chain = new Chain(
      config,
      (r) => {
        this.records.push(r);
        this.dataDir?.append(r);
      },
      this.originOf(config),
    );
    chain.impersonation = this.impersonation;
    return chain;
  }

  /** A forked chain's origin: one reader per fork point, kept across restarts and loads of the same fork. */
  private originOf(config: ChainConfig): ForkOrigin | undefined {
    const point = config.fork;
    if (!point) return undefined;
    const o = this.origin;
    if (o && o.point.url === point.url && o.point.blockNumber === point.blockNumber) return o;
    o?.close();
    this.origin = new ForkOrigin(point);
    return this.origin;
  }

  /** The fork origin of a forked chain (forwarding, `devnet_getConfig`), or undefined. */
  get forkOrigin(): ForkOrigin | undefined {
    return this.chain.config.fork ? this.origin : undefined;
  }

  /** The impersonated senders (devnet_impersonateAccount and its kin). */
  impersonationOf(): Impersonation {
    return this.impersonation;
  }

  /** L1 ↔ L2 messaging (devnet_postman*, starknet_getMessagesStatus). */
  readonly postman: Postman = new Postman(this);

  /** Accept the L1_HANDLER transaction of a message from L1 (mined at once in the default mode). */
  submitL1Handler(tx: Tx) {
    return this.chain.submitL1Handler(tx, runL1Message, this.autoMine);
  }

  /** Submit a transaction (mines it immediately in the default mode). */
  submit(tx: Tx) {
    return this.chain.submit(tx, this.autoMine);
  }

  /** Write pending records to the data directory. */
  flush(): void {
    this.dataDir?.flush();
  }

  /**
   * Where a dump file named by a client lives. With a data directory, dumps are confined to
   * `<data-dir>/dumps/` (a client cannot write or read elsewhere on the host); without one, the
   * path is used as given.
   */
  dumpPath(path: string): string {
    if (!this.dumpDir) return path;
    const resolved = resolve(this.dumpDir, path);
    if (!resolved.startsWith(this.dumpDir + sep)) {
      throw new DevchainError(ErrorCode.INVALID_PARAMS, {
        data: 'dump paths must stay inside the data directory dumps/ folder',
      });
    }
    mkdirSync(this.dumpDir, { recursive: true });
    return resolved;
  }

  /** All records of the chain (devnet_dump). */
  dump(path?: string): ChainRecord[] {
    if (path) writeRecords(this.dumpPath(path), this.records);
    return this.records;
  }

  /** Replace the chain by a dump file (devnet_load). */
  load(path: string): void {
    this.impersonation = new Impersonation();
    let records: ChainRecord[];
    const file = this.dumpPath(path);
    try {
      records = readRecords(file);
    } catch (e) {
      if (e instanceof DevchainError) throw e;
      throw new DevchainError(ErrorCode.INVALID_PARAMS, { data: `cannot read dump ${path}` });
    }
    this.reset(records);
  }

  /** Back to genesis (devnet_restart). */
  restart(): void {
    this.impersonation = new Impersonation();
    this.records = [];
    const chain = this.newChain(this.chain.config);
    this.chain = chain;
    this.dataDir?.rewrite([]);
    chain.initGenesis();
    this.dataDir?.rewrite(this.records);
  }

  /**
   * Aborts the mined blocks from number `from` to the latest (devnet_abortBlocks), and the pre-confirmed block's
   * transactions with them: the chain is rebuilt from its records without those blocks, so their state, transactions
   * and hashes are gone and a subscriber sees the reorg. Returns the aborted blocks' hashes, latest first.
   */
  abortBlocks(from: number): bigint[] {
    const chain = this.chain;
    if (from <= chain.firstNumber) throw unsupportedAction('The genesis block cannot be aborted');
    if (chain.isAcceptedOnL1(from)) {
      throw unsupportedAction(
        `Block ${from} is accepted on L1: only blocks after ${chain.l1AcceptedNumber} can be aborted`,
      );
    }
    const aborted: bigint[] = [];
    for (let n = chain.latestNumber; n >= from; n--) aborted.push(chain.blockByNumber(n)!.hash);
    this.reset(this.records.filter((r) => r.kind !== 'block' || r.number < from));
    return aborted;
  }

  private reset(records: ChainRecord[]): void {
    const first = records[0] as Extract<ChainRecord, { kind: 'config' }>;
    const chain = this.newChain(first.config);
    chain.replay(records);
    this.records = [...records];
    this.chain = chain;
    this.dataDir?.rewrite(this.records);
  }

  /** Stop timers (no block is mined on the interval from then on), mine pending transactions and flush state. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.chain.pendingBlock.txs.length > 0) this.chain.mine();
    this.flush();
    this.releaseLock?.();
    this.origin?.close();
  }
}
