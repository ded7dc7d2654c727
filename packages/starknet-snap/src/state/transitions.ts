/**
 * The snap's persistent state and its pure transition functions. Nothing here does I/O:
 * `store.ts` applies these functions under one mutex.
 */

/** Wallet-stored transaction status. */
export type TxStatus = 'RECEIVED' | 'PENDING' | 'ACCEPTED_ON_L2' | 'REJECTED';
/** Execution outcome once a transaction is in a block. */
export type ExecutionStatus = 'SUCCEEDED' | 'REVERTED';
/** Whether the account contract is deployed (initialized) or its deploy is in flight (initializing). */
export type AccountStatus = 'initializing' | 'initialized';
/** Kind of a stored transaction. */
export type TxType = 'INVOKE' | 'DEPLOY_ACCOUNT' | 'DECLARE';

/** A stored account (never holds a private key). */
export interface AccountRecord {
  readonly chainId: string;
  readonly address: string;
  readonly addressIndex: number;
  readonly publicKey: string;
  /** The class hash the address was computed with. */
  readonly classHash: string;
  /** Hash of the deploy transaction, when this snap sent it. */
  readonly deployTxnHash?: string;
  readonly status: AccountStatus;
}

/** A stored transaction record. */
export interface TxRecord {
  readonly chainId: string;
  readonly txnHash: string;
  readonly txnType: TxType;
  readonly senderAddress: string;
  readonly contractAddress: string;
  readonly contractFuncName: string;
  readonly contractCallData: readonly string[];
  /** Hex nonce the transaction was signed with. */
  readonly nonce: string;
  readonly status: TxStatus;
  readonly executionStatus?: ExecutionStatus;
  /** Revert reason or rejection message. */
  readonly failureReason?: string;
  /** Unix seconds when the snap sent it. */
  readonly timestamp: number;
}

/** A token the user asked the wallet to watch (stk_watchAsset). */
export interface AssetRecord {
  readonly chainId: string;
  readonly address: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

/** The whole persisted state. */
export interface SnapState {
  readonly version: 1;
  readonly accounts: readonly AccountRecord[];
  readonly transactions: readonly TxRecord[];
  /** Watched tokens, per network. */
  readonly assets?: readonly AssetRecord[];
  /** The network the user last switched to (stk_switchNetwork). */
  readonly selectedChainId?: string;
}

/** A status observed on the chain, to fold into a record. */
export interface StatusUpdate {
  readonly status: TxStatus;
  readonly executionStatus?: ExecutionStatus;
  readonly failureReason?: string;
}

/**
 * The empty state of a fresh install.
 *
 * @returns An empty state.
 */
export function emptyState(): SnapState {
  return { version: 1, accounts: [], transactions: [] };
}

/**
 * Reads whatever `snap_manageState` returned into a state, treating absent or foreign data as empty.
 *
 * @param raw - The stored value (null on a fresh install).
 * @returns The state.
 */
export function loadState(raw: unknown): SnapState {
  if (!raw || typeof raw !== 'object') return emptyState();
  const r = raw as Partial<SnapState>;
  return {
    version: 1,
    accounts: Array.isArray(r.accounts) ? r.accounts : [],
    transactions: Array.isArray(r.transactions) ? r.transactions : [],
    ...(Array.isArray(r.assets) ? { assets: r.assets } : {}),
    ...(typeof r.selectedChainId === 'string' ? { selectedChainId: r.selectedChainId } : {}),
  };
}

/**
 * Adds a watched token, or replaces the stored one with the same address on the same network.
 *
 * @param state - The state.
 * @param asset - The token.
 * @returns The new state.
 */
export function watchAsset(state: SnapState, asset: AssetRecord): SnapState {
  const others = (state.assets ?? []).filter((a) => !(a.chainId === asset.chainId && same(a.address, asset.address)));
  return { ...state, assets: [...others, asset] };
}

const same = (a: string, b: string) => BigInt(a) === BigInt(b);

/**
 * Finds a stored account.
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param address - The account address (any hex spelling).
 * @returns The record, or undefined.
 */
export function findAccount(state: SnapState, chainId: string, address: string): AccountRecord | undefined {
  return state.accounts.find((a) => a.chainId === chainId && same(a.address, address));
}

/**
 * Inserts an account or updates the stored one. An initialized account never goes back to initializing.
 *
 * @param state - The state.
 * @param account - The account.
 * @returns The new state.
 * @example
 * ```ts
 * const next = upsertAccount(emptyState(), { chainId, address, addressIndex: 0, publicKey, classHash, status: 'initializing' });
 * ```
 */
export function upsertAccount(state: SnapState, account: AccountRecord): SnapState {
  const existing = findAccount(state, account.chainId, account.address);
  if (!existing) return { ...state, accounts: [...state.accounts, account] };
  const merged: AccountRecord = {
    ...existing,
    ...account,
    status: existing.status === 'initialized' ? 'initialized' : account.status,
  };
  return { ...state, accounts: state.accounts.map((a) => (a === existing ? merged : a)) };
}

/**
 * Marks an account as initialized (its contract is deployed).
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param address - The account address.
 * @returns The new state (unchanged when the account is not stored).
 */
export function markAccountInitialized(state: SnapState, chainId: string, address: string): SnapState {
  const existing = findAccount(state, chainId, address);
  if (!existing || existing.status === 'initialized') return state;
  return {
    ...state,
    accounts: state.accounts.map((a) => (a === existing ? { ...a, status: 'initialized' } : a)),
  };
}

/**
 * Removes a stored account (its deploy failed, so it is neither initialized nor initializing).
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param address - The account address.
 * @returns The new state.
 */
export function removeAccount(state: SnapState, chainId: string, address: string): SnapState {
  const existing = findAccount(state, chainId, address);
  if (!existing) return state;
  return { ...state, accounts: state.accounts.filter((a) => a !== existing) };
}

/**
 * Finds a stored transaction.
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param txnHash - The transaction hash.
 * @returns The record, or undefined.
 */
export function findTransaction(state: SnapState, chainId: string, txnHash: string): TxRecord | undefined {
  return state.transactions.find((t) => t.chainId === chainId && same(t.txnHash, txnHash));
}

const RANK: Record<TxStatus, number> = { RECEIVED: 0, PENDING: 1, ACCEPTED_ON_L2: 2, REJECTED: 2 };

/**
 * Whether a record may move from `from` to `to`: statuses only move forward
 * (RECEIVED -> PENDING -> ACCEPTED_ON_L2, or to REJECTED), and final statuses are final.
 *
 * @param from - The stored status.
 * @param to - The observed status.
 * @returns True when the move is allowed.
 */
export function canAdvance(from: TxStatus, to: TxStatus): boolean {
  if (from === to) return true;
  return RANK[to] > RANK[from];
}

/** How many transaction records the state keeps per network; the oldest final ones go first. */
export const MAX_RECORDS_PER_CHAIN = 500;

/**
 * Drops the oldest final (ACCEPTED_ON_L2 or REJECTED) records of a network beyond `keep`, so the state stays
 * bounded. In-flight records are never dropped (they reserve nonces and still need their status).
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param keep - How many records of that network to keep at most.
 * @returns The new state (unchanged when under the limit).
 */
export function pruneTransactions(state: SnapState, chainId: string, keep: number): SnapState {
  const mine = state.transactions.filter((t) => t.chainId === chainId);
  let excess = mine.length - keep;
  if (excess <= 0) return state;
  const drop = new Set<TxRecord>();
  for (const t of [...mine].sort((a, b) => a.timestamp - b.timestamp)) {
    if (excess <= 0) break;
    if (t.status === 'ACCEPTED_ON_L2' || t.status === 'REJECTED') {
      drop.add(t);
      excess--;
    }
  }
  return drop.size ? { ...state, transactions: state.transactions.filter((t) => !drop.has(t)) } : state;
}

/**
 * Adds a transaction record; a record with the same hash is kept and only advanced. The network's records are
 * then pruned to {@link MAX_RECORDS_PER_CHAIN}.
 *
 * @param state - The state.
 * @param tx - The record.
 * @returns The new state.
 */
export function addTransaction(state: SnapState, tx: TxRecord): SnapState {
  const existing = findTransaction(state, tx.chainId, tx.txnHash);
  if (existing) return applyTransactionStatus(state, tx.chainId, tx.txnHash, tx);
  return pruneTransactions({ ...state, transactions: [...state.transactions, tx] }, tx.chainId, MAX_RECORDS_PER_CHAIN);
}

/**
 * Folds a status observed on the chain into a stored record, and its consequences into the sender's account:
 * an accepted, succeeded deploy initializes the account; a rejected or reverted deploy removes it.
 * Backward moves (e.g. ACCEPTED_ON_L2 -> PENDING from a lagging node) are ignored.
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param txnHash - The transaction hash.
 * @param update - The observed status.
 * @returns The new state (unchanged when the record is unknown or the move is backward).
 * @example
 * ```ts
 * applyTransactionStatus(s, chainId, hash, { status: 'ACCEPTED_ON_L2', executionStatus: 'SUCCEEDED' });
 * ```
 */
export function applyTransactionStatus(
  state: SnapState,
  chainId: string,
  txnHash: string,
  update: StatusUpdate,
): SnapState {
  const existing = findTransaction(state, chainId, txnHash);
  if (!existing || !canAdvance(existing.status, update.status)) return state;
  const next: TxRecord = {
    ...existing,
    status: update.status,
    ...(update.executionStatus ? { executionStatus: update.executionStatus } : {}),
    ...(update.failureReason ? { failureReason: update.failureReason } : {}),
  };
  let out: SnapState = {
    ...state,
    transactions: state.transactions.map((t) => (t === existing ? next : t)),
  };
  if (existing.txnType === 'DEPLOY_ACCOUNT') {
    const failed = next.status === 'REJECTED' || next.executionStatus === 'REVERTED';
    if (failed) out = removeAccount(out, chainId, existing.senderAddress);
    else if (next.status === 'ACCEPTED_ON_L2') out = markAccountInitialized(out, chainId, existing.senderAddress);
  }
  return out;
}

/**
 * Stored accounts of one network, ordered by address index.
 *
 * @param state - The state.
 * @param chainId - The network.
 * @returns The accounts.
 */
export function accountsOf(state: SnapState, chainId: string): AccountRecord[] {
  return state.accounts.filter((a) => a.chainId === chainId).sort((a, b) => a.addressIndex - b.addressIndex);
}

/**
 * Stored transactions sent by `senderAddress` on one network, newest first.
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param senderAddress - The sender.
 * @returns The records.
 */
export function transactionsOf(state: SnapState, chainId: string, senderAddress: string): TxRecord[] {
  return state.transactions
    .filter((t) => t.chainId === chainId && same(t.senderAddress, senderAddress))
    .sort((a, b) => b.timestamp - a.timestamp || Number(BigInt(b.nonce) - BigInt(a.nonce)));
}

/** How long an in-flight record keeps its nonce reserved when the node has not counted it yet (seconds). */
export const NONCE_RESERVATION_SECONDS = 600;

/**
 * The next nonce this snap should use for `senderAddress`, given the chain's nonce: one past the highest nonce of
 * a stored transaction that is not rejected, when that is ahead of the chain. This keeps back-to-back sends from
 * reusing a nonce while the node has not yet counted the earlier ones. Records still RECEIVED after
 * {@link NONCE_RESERVATION_SECONDS} no longer reserve their nonce (the node dropped them), so a lost
 * transaction cannot block the account forever.
 *
 * @param state - The state.
 * @param chainId - The network.
 * @param senderAddress - The sender.
 * @param chainNonce - The nonce the node reports (pre-confirmed state).
 * @param now - Current unix time in seconds.
 * @returns The nonce to sign with.
 */
export function nextNonce(
  state: SnapState,
  chainId: string,
  senderAddress: string,
  chainNonce: bigint,
  now: number,
): bigint {
  let next = chainNonce;
  for (const t of transactionsOf(state, chainId, senderAddress)) {
    if (t.status === 'REJECTED') continue;
    if (t.status === 'RECEIVED' && now - t.timestamp > NONCE_RESERVATION_SECONDS) continue;
    const n = BigInt(t.nonce) + 1n;
    if (n > next) next = n;
  }
  return next;
}
