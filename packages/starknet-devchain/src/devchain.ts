/** A running dev chain: the chain, its data directory, mining mode and devnet operations. */
import { mkdirSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { Chain, type ChainConfig, type ChainRecord } from './chain/Chain.js';
import { DataDir, readRecords, writeRecords } from './chain/persistence.js';
import type { Tx } from './chain/transaction.js';
import { DevchainError, ErrorCode } from './errors.js';
import { lockDataDir } from './lockDataDir.js';

/** Options of a dev chain instance (see `startDevchain`). */
export interface DevchainNodeOptions {
  config: ChainConfig;
  dataDir?: string | undefined;
  /** Mine on this interval instead of one block per transaction. */
  blockIntervalMs?: number | undefined;
  /** Mine only on devnet_createBlock (transactions wait in the pre-confirmed block). */
  mineOnDemand?: boolean | undefined;
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
      this.flush();
    }
    if (options.blockIntervalMs) {
      this.timer = setInterval(() => {
        if (this.chain.pendingBlock.txs.length > 0) this.chain.mine();
      }, options.blockIntervalMs);
      this.timer.unref();
    }
    this.flushTimer = setInterval(() => this.flush(), 200);
    this.flushTimer.unref();
  }

  private newChain(config: ChainConfig): Chain {
    return new Chain(config, (r) => {
      this.records.push(r);
      this.dataDir?.append(r);
    });
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
    this.records = [];
    const chain = this.newChain(this.chain.config);
    this.chain = chain;
    this.dataDir?.rewrite([]);
    chain.initGenesis();
    this.dataDir?.rewrite(this.records);
  }

  private reset(records: ChainRecord[]): void {
    const first = records[0] as Extract<ChainRecord, { kind: 'config' }>;
    const chain = new Chain(first.config, (r) => {
      this.records.push(r);
      this.dataDir?.append(r);
    });
    chain.replay(records);
    this.records = [...records];
    this.chain = chain;
    this.dataDir?.rewrite(this.records);
  }

  /** Stop timers, mine pending transactions and flush state. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.chain.pendingBlock.txs.length > 0) this.chain.mine();
    this.flush();
    this.releaseLock?.();
  }
}
