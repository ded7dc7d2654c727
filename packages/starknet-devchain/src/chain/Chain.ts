/**
 * The chain: blocks, the pre-confirmed block, transaction and event indexes, mining and time.
 * Transaction semantics live in `processTransaction.ts`; persistence in `persistence.ts`.
 */
import { hash } from 'starknet';
import { nativeClasses } from '../contracts/registry.js';
import { cachedJson } from '../rpc/rawJson.js';
import { selector } from '../crypto/hashes.js';
import { poseidonHash } from '@nodegate/sierra-vm';
import { transactionHash } from '../crypto/transactionHash.js';
import { DevchainError, ErrorCode } from '../errors.js';
import { toHex, toU256 } from '../felt.js';
import {
  blockHash,
  concatCounts,
  eventLeaf,
  patriciaRoot,
  receiptLeaf,
  stateDiffHash,
  stateDiffLength,
  transactionLeaf,
} from './commitments.js';
import { decodeDiff, type EncodedDiff, encodeDiff } from './codec.js';
import { callRecorder, runEntryPoint } from './execute.js';
import type { GasPrices } from './gas.js';
import { genesisDiff, type PredeployedAccount, predeployedAccounts, UDC_ADDRESS } from './genesis.js';
import {
  type BlockEnv,
  ETH_ADDRESS,
  type ProcessOptions,
  type ProcessResult,
  processTransaction,
  STRK_ADDRESS,
  tokenBalance,
} from './processTransaction.js';
import { type InitialReads, recordInitialReads } from './recordInitialReads.js';
import { emptyDiff, mergeDiff, type StateDiff, type StateReader, StateOverlay, VersionedState } from './state.js';
import { Impersonation } from './Impersonation.js';
import type { Tx } from './transaction.js';
import type { ForkPoint } from '../fork/ForkOrigin.js';
import { forkGenesisDiff } from '../fork/forkGenesisDiff.js';

/** Protocol version reported in block headers. */
export const STARKNET_VERSION = '0.14.2';

/** Chain parameters fixed at genesis. */
export interface ChainConfig {
  chainId: bigint;
  seed: number;
  accounts: number;
  initialBalance: bigint;
  prices: GasPrices;
  sequencer: bigint;
  genesisTimestamp: number;
  /** A forked chain's origin and fork block: its blocks start after it, on the origin's state there. */
  fork?: ForkPoint;
}

/** What a forked chain reads the origin's state and block hashes through (`fork/ForkOrigin.ts`). */
export interface OriginReader extends StateReader {
  blockHash(n: number): bigint | undefined;
}

/** A receipt as stored (without finality / block fields). */
export interface StoredReceipt {
  type: string;
  transaction_hash: string;
  actual_fee: { amount: string; unit: 'FRI' | 'WEI' };
  execution_status: 'SUCCEEDED' | 'REVERTED';
  revert_reason?: string;
  messages_sent: unknown[];
  events: { from_address: string; keys: string[]; data: string[] }[];
  execution_resources: { l1_gas: number; l1_data_gas: number; l2_gas: number };
  contract_address?: string;
  message_hash?: string;
}

/** A transaction with its receipt and position. */
export interface StoredTx {
  tx: Tx;
  hash: bigint;
  receipt: StoredReceipt;
  /** Accepted without validation (its sender was impersonated): replays skip validation too. */
  skipValidate?: boolean;
  blockNumber: number;
  index: number;
}

/** An event with its position, as returned by getEvents. */
export interface EmittedEvent {
  from_address: string;
  keys: string[];
  data: string[];
  transaction_hash: string;
  transaction_index: number;
  event_index: number;
  block_number: number;
  block_hash?: string;
}

/** A mined block. */
export interface Block {
  number: number;
  hash: bigint;
  parentHash: bigint;
  timestamp: number;
  newRoot: bigint;
  txs: StoredTx[];
  events: EmittedEvent[];
  diff: StateDiff;
  /** The gas prices the block was built with. */
  prices: GasPrices;
  stateDiffLength: number;
  stateDiffCommitment: bigint;
  transactionCommitment: bigint;
  eventCommitment: bigint;
  receiptCommitment: bigint;
}

/** The block being built. */
export interface PendingBlock {
  number: number;
  txs: StoredTx[];
  diff: StateDiff;
}

/** One persisted record (data directory line, devnet_dump entry). */
export type ChainRecord =
  | { kind: 'config'; config: ChainConfig }
  | {
      kind: 'block';
      number: number;
      hash: bigint;
      parentHash: bigint;
      timestamp: number;
      newRoot: bigint;
      txs: { tx: Tx; hash: bigint; receipt: StoredReceipt; skipValidate?: boolean }[];
      diff: EncodedDiff;
      commitments: [number, bigint, bigint, bigint, bigint];
      /** The block's gas prices (absent in records written before devnet_setGasPrice: the config's). */
      prices?: GasPrices;
    }
  | { kind: 'time'; offset: number }
  /** devnet_setGasPrice: the prices of the blocks after the next one mined. */
  | { kind: 'prices'; prices: GasPrices }
  /** devnet_acceptOnL1: blocks up to `number` are ACCEPTED_ON_L1. */
  | { kind: 'l1Accepted'; number: number };

/** A resolved BLOCK_ID. */
export type ResolvedBlock = { kind: 'block'; block: Block } | { kind: 'pending'; pending: PendingBlock };

/** Parsed BLOCK_ID. */
export type BlockId = { tag: 'latest' | 'pre_confirmed' | 'l1_accepted' } | { hash: bigint } | { number: number };

/** Listener for new records (persistence). */
export type RecordSink = (record: ChainRecord) => void;

/** The chain state machine. */
export class Chain {
  readonly config: ChainConfig;
  readonly accounts: PredeployedAccount[];
  private state: VersionedState;
  /** A forked chain's origin (absent: not forked). */
  private readonly origin: OriginReader | undefined;
  private blocks: Block[] = [];
  private byHash = new Map<bigint, Block>();
  private txIndex = new Map<bigint, StoredTx>();
  private pending!: PendingBlock;
  private timeOffset = 0;
  private sink: RecordSink | undefined;
  /** The gas prices of the block being built, and those set for the blocks after it (devnet_setGasPrice). */
  private prices: GasPrices;
  private nextPrices: GasPrices | undefined;
  /** The last block accepted on L1 (devnet_acceptOnL1); -1: none. */
  private l1Accepted = -1;
  /** Senders whose transactions skip validation (set by the node that owns the chain). */
  impersonation = new Impersonation();

  constructor(config: ChainConfig, sink?: RecordSink, origin?: OriginReader) {
    this.config = config;
    this.origin = config.fork ? origin : undefined;
    if (config.fork && !origin) throw new Error('a forked chain needs its origin');
    this.state = new VersionedState(this.origin);
    this.accounts = predeployedAccounts(config.seed, config.accounts, config.initialBalance);
    this.sink = sink;
    this.prices = config.prices;
  }

  /** Create genesis (block 0) and emit its records. */
  initGenesis(): void {
    this.emit({ kind: 'config', config: this.config });
    const first = this.firstNumber;
    // a forked chain's blocks up to the fork block are the origin's: holes here (see `fork/`)
    this.blocks.length = first;
    this.pending = { number: first, txs: [], diff: emptyDiff() };
    const diff = this.origin ? forkGenesisDiff(genesisDiff(this.accounts), this.origin) : genesisDiff(this.accounts);
    this.state.apply(diff, first);
    mergeDiff(this.pending.diff, diff);
    this.mine(this.config.fork ? undefined : this.config.genesisTimestamp);
  }

  /** The number of the chain's own first block: 0, or the block after the fork block. */
  get firstNumber(): number {
    return this.config.fork ? this.config.fork.blockNumber + 1 : 0;
  }

  /** The hash of block `n`: a mined block's, or the origin's for a forked chain's blocks up to the fork block. */
  private hashOfBlock(n: number): bigint | undefined {
    return this.blocks[n]?.hash ?? this.origin?.blockHash(n);
  }

  /** Rebuild from records (config first). */
  replay(records: readonly ChainRecord[]): void {
    this.blocks.length = this.firstNumber;
    this.pending = { number: this.firstNumber, txs: [], diff: emptyDiff() };
    for (const r of records) {
      if (r.kind === 'time') this.timeOffset = r.offset;
      else if (r.kind === 'block') {
        this.applyBlockRecord(r);
        this.advancePrices();
      } else if (r.kind === 'prices') this.nextPrices = r.prices;
      else if (r.kind === 'l1Accepted') this.l1Accepted = r.number;
    }
    this.pending = { number: this.blocks.length, txs: [], diff: emptyDiff() };
  }

  private emit(r: ChainRecord): void {
    this.sink?.(r);
  }

  private applyBlockRecord(r: Extract<ChainRecord, { kind: 'block' }>): void {
    const diff = decodeDiff(r.diff);
    this.state.apply(diff, r.number);
    const txs: StoredTx[] = r.txs.map((t, index) => ({ ...t, blockNumber: r.number, index }));
    const [stateDiffLength, sdc, tc, ec, rc] = r.commitments;
    const block: Block = {
      number: r.number,
      hash: r.hash,
      parentHash: r.parentHash,
      timestamp: r.timestamp,
      newRoot: r.newRoot,
      txs,
      events: [],
      diff,
      prices: r.prices ?? this.config.prices,
      stateDiffLength,
      stateDiffCommitment: sdc,
      transactionCommitment: tc,
      eventCommitment: ec,
      receiptCommitment: rc,
    };
    block.events = blockEvents(txs, r.number, toHex(r.hash));
    for (const t of txs) this.txIndex.set(t.hash, t);
    this.blocks.push(block);
    this.byHash.set(block.hash, block);
  }

  /** Number of the latest mined block. */
  get latestNumber(): number {
    return this.blocks.length - 1;
  }

  /** The latest mined block. */
  get latest(): Block {
    return this.blocks[this.blocks.length - 1]!;
  }

  /** The pre-confirmed block. */
  get pendingBlock(): PendingBlock {
    return this.pending;
  }

  /** Mined block by number. */
  blockByNumber(n: number): Block | undefined {
    return this.blocks[n];
  }

  /** All mined blocks (read-only view). */
  get allBlocks(): readonly Block[] {
    return this.blocks;
  }

  /** Current chain time in seconds. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.timeOffset;
  }

  /** Resolve a BLOCK_ID or throw BLOCK_NOT_FOUND. */
  resolve(id: BlockId): ResolvedBlock {
    if ('tag' in id) {
      if (id.tag === 'latest') return { kind: 'block', block: this.latest };
      if (id.tag === 'pre_confirmed') return { kind: 'pending', pending: this.pending };
      if (this.l1Accepted < 0) {
        throw new DevchainError(ErrorCode.BLOCK_NOT_FOUND, {
          data: 'no block is accepted on L1 on this dev chain (devnet_acceptOnL1 accepts them)',
        });
      }
      return { kind: 'block', block: this.blocks[this.l1Accepted]! };
    }
    const block = 'hash' in id ? this.byHash.get(id.hash) : this.blocks[id.number];
    if (!block) throw new DevchainError(ErrorCode.BLOCK_NOT_FOUND);
    return { kind: 'block', block };
  }

  /** Block number a BLOCK_ID designates (the pending number for pre_confirmed). */
  numberOf(id: BlockId): number {
    const r = this.resolve(id);
    return r.kind === 'block' ? r.block.number : r.pending.number;
  }

  /** State as of a block. */
  stateAt(id: BlockId): StateReader {
    return this.state.at(this.numberOf(id));
  }

  /**
   * The number of the block that last wrote a storage slot, as seen at `id` (the pending block
   * counts with its number); 0 when the slot was never written.
   */
  storageUpdatedAt(address: bigint, key: bigint, id: BlockId): number {
    const r = this.resolve(id);
    if (r.kind === 'pending') {
      if (r.pending.diff.storage.get(address)?.has(key)) return r.pending.number;
      return this.state.storageWrittenAt(address, key, this.latest.number) ?? 0;
    }
    return this.state.storageWrittenAt(address, key, r.block.number) ?? 0;
  }

  /**
   * Runs a block's transactions again over its parent state, with the block's environment, and
   * says which state values they read first (RETURN_INITIAL_READS of traceBlockTransactions).
   */
  blockInitialReads(id: BlockId): InitialReads {
    const r = this.resolve(id);
    const number = r.kind === 'pending' ? r.pending.number : r.block.number;
    const txs = r.kind === 'pending' ? r.pending.txs : r.block.txs;
    const env: BlockEnv =
      r.kind === 'pending'
        ? this.pendingEnv()
        : { ...this.pendingEnv(), number, timestamp: r.block.timestamp, prices: r.block.prices };
    const recorder = recordInitialReads(this.state.at(number - 1));
    const base = new StateOverlay(recorder);
    for (const t of txs) {
      const opts = { skipValidate: t.skipValidate === true, skipFeeCharge: false, checkFeeBounds: false };
      try {
        processTransaction(base, t.tx, t.hash, env, opts).overlay.commitTo(base);
      } catch {
        // a transaction refused now was accepted then: its reads so far are kept
      }
    }
    return recorder.initialReads();
  }

  /** The environment of the block being built. */
  pendingEnv(): BlockEnv {
    return {
      number: this.pending.number,
      timestamp: this.now(),
      sequencer: this.config.sequencer,
      prices: this.prices,
      chainId: this.config.chainId,
      blockHash: (n) => this.hashOfBlock(n),
    };
  }

  /** Stored transaction by hash. */
  getTransaction(hash: bigint): StoredTx | undefined {
    return this.txIndex.get(hash);
  }

  /** Whether a stored tx is in the pre-confirmed block. */
  isPending(t: StoredTx): boolean {
    return t.blockNumber === this.pending.number;
  }

  /** Hash a transaction on this chain. */
  hashOf(tx: Tx): bigint {
    return transactionHash(tx, this.config.chainId);
  }

  /**
   * Accept a transaction into the pre-confirmed block (and mine it unless `autoMine` is false).
   * Throws DevchainError for rejections.
   */
  submit(tx: Tx, autoMine: boolean): StoredTx {
    if (tx.query)
      throw new DevchainError(ErrorCode.UNSUPPORTED_TX_VERSION, { data: 'query versions cannot be submitted' });
    const hash = this.hashOf(tx);
    if (this.txIndex.has(hash)) throw new DevchainError(ErrorCode.DUPLICATE_TX, { data: toHex(hash) });
    const base = this.state.at(this.pending.number);
    const skipValidate = this.impersonates(tx);
    const result = processTransaction(base, tx, hash, this.pendingEnv(), {
      skipValidate,
      skipFeeCharge: false,
      checkFeeBounds: true,
    });
    const stored = this.record(tx, result, skipValidate);
    if (autoMine) this.mine();
    return stored;
  }

  /**
   * Accept an L1_HANDLER transaction (a message from L1, brought by the postman) into the pre-confirmed block: `run`
   * executes it over the pre-confirmed state (see `messaging/runL1Message.ts`), and it is recorded like any other
   * transaction, reverted or not (mined at once when `autoMine`). Throws DUPLICATE_TX for a message already handled.
   */
  submitL1Handler(
    tx: Tx,
    run: (base: StateReader, tx: Tx, hash: bigint, env: BlockEnv) => ProcessResult,
    autoMine: boolean,
  ): StoredTx {
    const hash = this.hashOf(tx);
    if (this.txIndex.has(hash)) throw new DevchainError(ErrorCode.DUPLICATE_TX, { data: toHex(hash) });
    const stored = this.record(tx, run(this.state.at(this.pending.number), tx, hash, this.pendingEnv()));
    if (autoMine) this.mine();
    return stored;
  }

  /** Whether `tx` skips validation because its sender is impersonated (INVOKE and DECLARE only, as devnet's). */
  impersonates(tx: Tx): boolean {
    return (tx.type === 'INVOKE' || tx.type === 'DECLARE') && this.impersonation.covers(tx.sender);
  }

  private record(tx: Tx, result: ProcessResult, skipValidate = false): StoredTx {
    // Writes that leave a value unchanged are not part of the state diff.
    const before = this.state.at(this.pending.number);
    for (const [addr, slots] of result.overlay.diff.storage) {
      for (const [k, v] of slots) if (before.getStorage(addr, k) === v) slots.delete(k);
      if (slots.size === 0) result.overlay.diff.storage.delete(addr);
    }
    const receipt = toStoredReceipt(tx, result);
    const stored: StoredTx = {
      tx,
      hash: result.hash,
      receipt,
      blockNumber: this.pending.number,
      index: this.pending.txs.length,
    };
    if (skipValidate) stored.skipValidate = true;
    this.state.apply(result.overlay.diff, this.pending.number);
    mergeDiff(this.pending.diff, result.overlay.diff);
    this.pending.txs.push(stored);
    this.txIndex.set(result.hash, stored);
    return stored;
  }

  /**
   * Run transactions in sequence over a block's state without committing (estimateFee,
   * simulateTransactions). Rejections (validation, nonce, ...) throw TRANSACTION_EXECUTION_ERROR with the
   * failing index; so does a reverted transaction unless `keepReverted` (simulateTransactions: its trace
   * carries the revert reason, a DEPLOY_ACCOUNT's failing constructor included).
   */
  simulate(
    txs: readonly Tx[],
    id: BlockId,
    opts: Omit<ProcessOptions, 'checkFeeBounds' | 'revertConstructor'> & { keepReverted?: boolean },
    wrap: (reader: StateReader) => StateReader = (r) => r,
  ): ProcessResult[] {
    const base = new StateOverlay(wrap(this.stateAt(id)));
    const env = this.pendingEnv();
    const { keepReverted = false, ...process } = opts;
    return txs.map((tx, i) => {
      try {
        const r = processTransaction(base, tx, this.hashOf(tx), env, {
          ...process,
          skipValidate: process.skipValidate || this.impersonates(tx),
          checkFeeBounds: false,
          revertConstructor: keepReverted,
        });
        if (r.reverted && !keepReverted)
          throw new DevchainError(ErrorCode.TRANSACTION_EXECUTION_ERROR, {
            data: { transaction_index: i, execution_error: r.revertReason ?? 'reverted' },
          });
        r.overlay.commitTo(base);
        return r;
      } catch (e) {
        if (
          e instanceof DevchainError &&
          e.code !== ErrorCode.TRANSACTION_EXECUTION_ERROR &&
          e.code !== ErrorCode.INVALID_PARAMS
        ) {
          throw new DevchainError(ErrorCode.TRANSACTION_EXECUTION_ERROR, {
            data: { transaction_index: i, execution_error: typeof e.data === 'string' ? e.data : e.message },
            cause: e,
          });
        }
        throw e;
      }
    });
  }

  /** Execute a view call at a block. */
  call(
    to: bigint,
    sel: bigint,
    calldata: bigint[],
    id: BlockId,
    type: 'EXTERNAL' | 'L1_HANDLER' = 'EXTERNAL',
  ): bigint[] {
    const state = new StateOverlay(this.stateAt(id));
    const n = this.numberOf(id);
    return runEntryPoint(
      {
        state,
        tx: { hash: 0n, version: 0n, account: 0n, nonce: 0n, signature: [], chainId: this.config.chainId },
        blockNumber: n,
        blockTimestamp: this.now(),
        events: [],
        messages: [],
        sequencer: this.config.sequencer,
        blockHash: (b) => this.hashOfBlock(b),
      },
      to,
      sel,
      calldata,
      0n,
      type,
    );
  }

  /** Mint fee tokens through an L1_HANDLER transaction on the token (as a bridge deposit would). */
  mint(address: bigint, amount: bigint, unit: 'FRI' | 'WEI'): { txHash: bigint; newBalance: bigint } {
    const token = unit === 'FRI' ? STRK_ADDRESS : ETH_ADDRESS;
    const [low, high] = toU256(amount);
    const nonce = BigInt(this.txIndex.size);
    const tx: Tx = {
      type: 'L1_HANDLER',
      version: 0n,
      baseVersion: 0,
      query: false,
      sender: token,
      nonce,
      signature: [],
      calldata: [0n, address, low, high],
      tip: 0n,
      paymasterData: [],
      accountDeploymentData: [],
      nonceDA: 'L1',
      feeDA: 'L1',
      entryPointSelector: selector('handle_deposit'),
    };
    const hash = this.hashOf(tx);
    this.record(tx, this.runL1Handler(this.state.at(this.pending.number), tx, hash, this.pendingEnv()));
    this.mine();
    return { txHash: hash, newBalance: tokenBalance(this.state.at(this.latestNumber), token, address) };
  }

  /** Runs an L1_HANDLER transaction (a deposit) over `base`: its entry point on the target, with no fee. */
  private runL1Handler(base: StateReader, tx: Tx, hash: bigint, env: BlockEnv): ProcessResult {
    const overlay = new StateOverlay(base);
    const events: ProcessResult['events'] = [];
    const messages: ProcessResult['messages'] = [];
    const recorder = callRecorder();
    runEntryPoint(
      {
        state: overlay,
        tx: { hash, version: 0n, account: 0n, nonce: tx.nonce, signature: [], chainId: this.config.chainId },
        blockNumber: env.number,
        blockTimestamp: env.timestamp,
        events,
        messages,
        sequencer: env.sequencer,
        recorder,
        ...(env.blockHash ? { blockHash: env.blockHash } : {}),
      },
      tx.sender,
      tx.entryPointSelector!,
      tx.calldata,
      0n,
      'L1_HANDLER',
    );
    return {
      hash,
      overlay,
      events,
      messages,
      calls: recorder.calls[0] ? { execute: recorder.calls[0] } : {},
      gas: { l1_gas: 0, l1_data_gas: 0, l2_gas: 0 },
      fee: 0n,
      unit: 'WEI',
      reverted: false,
    };
  }

  /**
   * Runs the transactions of `t`'s block again over the block's parent state, with the block's environment, up to
   * `t`: its result with the recorded calls (for traces), or undefined when it cannot be run again.
   */
  replayTransaction(t: StoredTx): ProcessResult | undefined {
    const pending = t.blockNumber === this.pending.number;
    const block = pending ? undefined : this.blocks[t.blockNumber];
    const txs = block ? block.txs : pending ? this.pending.txs : undefined;
    if (!txs || t.blockNumber === 0) return undefined;
    const env: BlockEnv = block
      ? { ...this.pendingEnv(), number: block.number, timestamp: block.timestamp, prices: block.prices }
      : this.pendingEnv();
    const base = new StateOverlay(this.state.at(t.blockNumber - 1));
    for (const s of txs) {
      const opts = { skipValidate: s.skipValidate === true, skipFeeCharge: false, checkFeeBounds: false };
      let r: ProcessResult;
      try {
        r =
          s.tx.type === 'L1_HANDLER'
            ? this.runL1Handler(base, s.tx, s.hash, env)
            : processTransaction(base, s.tx, s.hash, env, opts);
      } catch {
        return undefined;
      }
      r.overlay.commitTo(base);
      if (s.hash === t.hash) return r;
    }
    return undefined;
  }

  /** Close the pre-confirmed block into a new block; returns it. */
  mine(timestamp?: number): Block {
    const p = this.pending;
    const parent = this.blocks[this.blocks.length - 1];
    const fork = this.config.fork;
    const parentHash = parent?.hash ?? fork?.blockHash ?? 0n;
    const ts = timestamp ?? Math.max(this.now(), parent?.timestamp ?? fork?.timestamp ?? 0);
    const sd = { length: stateDiffLength(p.diff), commitment: stateDiffHash(p.diff) };
    const newRoot = poseidonHash(parent?.newRoot ?? fork?.stateRoot ?? 0n, sd.commitment);
    const txCommit = patriciaRoot(p.txs.map((t) => transactionLeaf(t.hash, t.tx.signature)));
    const eventLeaves = p.txs.flatMap((t) =>
      t.receipt.events.map((e) =>
        eventLeaf({ from: BigInt(e.from_address), txHash: t.hash, keys: e.keys.map(BigInt), data: e.data.map(BigInt) }),
      ),
    );
    const eventCommit = patriciaRoot(eventLeaves);
    const receiptCommit = patriciaRoot(
      p.txs.map((t) =>
        receiptLeaf({
          txHash: t.hash,
          actualFee: BigInt(t.receipt.actual_fee.amount),
          messages: [],
          revertReason: t.receipt.revert_reason,
          l1Gas: BigInt(t.receipt.execution_resources.l1_gas),
          l1DataGas: BigInt(t.receipt.execution_resources.l1_data_gas),
        }),
      ),
    );
    const pr = this.prices;
    const hash = blockHash({
      number: p.number,
      stateRoot: newRoot,
      sequencer: this.config.sequencer,
      timestamp: ts,
      concatCounts: concatCounts(p.txs.length, eventLeaves.length, sd.length, true),
      stateDiffCommitment: sd.commitment,
      transactionCommitment: txCommit,
      eventCommitment: eventCommit,
      receiptCommitment: receiptCommit,
      prices: {
        l1Wei: pr.wei.l1,
        l1Fri: pr.fri.l1,
        l1DataWei: pr.wei.l1Data,
        l1DataFri: pr.fri.l1Data,
        l2Wei: pr.wei.l2,
        l2Fri: pr.fri.l2,
      },
      starknetVersion: STARKNET_VERSION,
      parentHash,
    });
    const record: Extract<ChainRecord, { kind: 'block' }> = {
      kind: 'block',
      number: p.number,
      hash,
      parentHash,
      timestamp: ts,
      newRoot,
      txs: p.txs.map((t) => ({
        tx: t.tx,
        hash: t.hash,
        receipt: t.receipt,
        ...(t.skipValidate ? { skipValidate: true } : {}),
      })),
      diff: encodeDiff(p.diff),
      commitments: [sd.length, sd.commitment, txCommit, eventCommit, receiptCommit],
      prices: pr,
    };
    const block: Block = {
      number: p.number,
      hash,
      parentHash,
      timestamp: ts,
      newRoot,
      txs: p.txs,
      events: blockEvents(p.txs, p.number, toHex(hash)),
      diff: p.diff,
      prices: pr,
      stateDiffLength: sd.length,
      stateDiffCommitment: sd.commitment,
      transactionCommitment: txCommit,
      eventCommitment: eventCommit,
      receiptCommitment: receiptCommit,
    };
    this.blocks.push(block);
    this.byHash.set(hash, block);
    this.pending = { number: p.number + 1, txs: [], diff: emptyDiff() };
    this.emit(record);
    this.advancePrices();
    return block;
  }

  /** After a block is closed: the prices set by devnet_setGasPrice apply from the block being built on. */
  private advancePrices(): void {
    if (!this.nextPrices) return;
    this.prices = this.nextPrices;
    this.nextPrices = undefined;
  }

  /** The gas prices of the block being built (estimates, the pre-confirmed header). */
  get gasPrices(): GasPrices {
    return this.prices;
  }

  /** The gas prices the next blocks get (devnet_setGasPrice): from the block after the one being built. */
  setNextPrices(prices: GasPrices): void {
    this.nextPrices = prices;
    this.emit({ kind: 'prices', prices });
  }

  /** The prices set for the next blocks and not yet in force, or those in force. */
  get nextGasPrices(): GasPrices {
    return this.nextPrices ?? this.prices;
  }

  /** The last block accepted on L1, or -1. */
  get l1AcceptedNumber(): number {
    return this.l1Accepted;
  }

  /** Whether mined block `n` is accepted on L1. */
  isAcceptedOnL1(n: number): boolean {
    return n <= this.l1Accepted;
  }

  /** Marks blocks up to `n` (a mined block) ACCEPTED_ON_L1. */
  acceptOnL1(n: number): void {
    this.l1Accepted = n;
    this.emit({ kind: 'l1Accepted', number: n });
  }

  /** Events of the pre-confirmed block. */
  pendingEvents(): EmittedEvent[] {
    return blockEvents(this.pending.txs, this.pending.number, undefined);
  }

  /** Set the chain time (seconds); optionally mine a block at that time. */
  setTime(time: number, generateBlock: boolean): Block | undefined {
    this.timeOffset = time - Math.floor(Date.now() / 1000);
    this.emit({ kind: 'time', offset: this.timeOffset });
    return generateBlock ? this.mine(time) : undefined;
  }

  /** Move the chain time forward and mine a block. */
  increaseTime(seconds: number): Block {
    this.timeOffset += seconds;
    this.emit({ kind: 'time', offset: this.timeOffset });
    return this.mine();
  }

  /** Fee-token balance of an address at the latest block. */
  balanceOf(address: bigint, unit: 'FRI' | 'WEI', id: BlockId = { tag: 'latest' }): bigint {
    return tokenBalance(this.stateAt(id), unit === 'FRI' ? STRK_ADDRESS : ETH_ADDRESS, address);
  }
}

function blockEvents(txs: readonly StoredTx[], blockNumber: number, hash: string | undefined): EmittedEvent[] {
  const out: EmittedEvent[] = [];
  for (const t of txs) {
    const txHash = toHex(t.hash);
    t.receipt.events.forEach((e, i) => {
      const ev: EmittedEvent = {
        from_address: e.from_address,
        keys: e.keys,
        data: e.data,
        transaction_hash: txHash,
        transaction_index: t.index,
        event_index: i,
        block_number: blockNumber,
      };
      if (hash !== undefined) {
        ev.block_hash = hash;
        cachedJson(ev);
      }
      out.push(ev);
    });
  }
  return out;
}

function toStoredReceipt(tx: Tx, r: ProcessResult): StoredReceipt {
  const receipt: StoredReceipt = {
    type: tx.type,
    transaction_hash: toHex(r.hash),
    actual_fee: { amount: toHex(r.fee), unit: r.unit },
    execution_status: r.reverted ? 'REVERTED' : 'SUCCEEDED',
    messages_sent: r.messages.map((m) => ({
      from_address: toHex(m.from),
      to_address: toHex(m.to),
      payload: m.payload.map(toHex),
    })),
    events: r.events.map((e) => ({ from_address: toHex(e.from), keys: e.keys.map(toHex), data: e.data.map(toHex) })),
    execution_resources: { ...r.gas },
  };
  if (r.revertReason !== undefined) receipt.revert_reason = r.revertReason;
  if (tx.type === 'DEPLOY_ACCOUNT') receipt.contract_address = toHex(tx.sender);
  if (tx.type === 'L1_HANDLER') {
    const [from = 0n, ...payload] = tx.calldata;
    receipt.message_hash = hash.getL2MessageHash(from, tx.sender, tx.entryPointSelector ?? 0n, payload, tx.nonce);
  }
  return receipt;
}

/** Addresses of the predeployed contracts. */
export const PREDEPLOYED = { STRK_ADDRESS, ETH_ADDRESS, UDC_ADDRESS, classes: nativeClasses } as const;
