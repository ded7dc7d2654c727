import {
  type AccountRecord,
  accountsOf,
  addTransaction,
  applyTransactionStatus,
  canAdvance,
  emptyState,
  findAccount,
  findTransaction,
  loadState,
  markAccountInitialized,
  MAX_RECORDS_PER_CHAIN,
  NONCE_RESERVATION_SECONDS,
  pruneTransactions,
  nextNonce,
  removeAccount,
  type TxRecord,
  transactionsOf,
  upsertAccount,
} from '../../src/state/transitions';

const CHAIN = '0x534e5f5345504f4c4941';
const OTHER = '0x534e5f4d41494e';
const ADDR = '0x3a48f9784a19e574e3976351f36d3806b8c27a97a972d2e2834e067d2c52883';

const account = (over: Partial<AccountRecord> = {}): AccountRecord => ({
  chainId: CHAIN,
  address: ADDR,
  addressIndex: 0,
  publicKey: '0x1297ebe045cf72e92946f2daf84e7cbafdbe89bcb6f382e8fd3bdc254ea8a62',
  classHash: '0x1',
  status: 'initializing',
  ...over,
});

const tx = (over: Partial<TxRecord> = {}): TxRecord => ({
  chainId: CHAIN,
  txnHash: '0xabc',
  txnType: 'INVOKE',
  senderAddress: ADDR,
  contractAddress: '0x99',
  contractFuncName: 'transfer',
  contractCallData: ['0x1', '0x2', '0x0'],
  nonce: '0x1',
  status: 'RECEIVED',
  timestamp: 1000,
  ...over,
});

describe('loadState', () => {
  it('treats null and foreign data as empty', () => {
    expect(loadState(null)).toEqual(emptyState());
    expect(loadState('x')).toEqual(emptyState());
    expect(loadState({ accounts: 'no' })).toEqual(emptyState());
  });
  it('keeps stored accounts and transactions', () => {
    const s = loadState({ version: 1, accounts: [account()], transactions: [tx()] });
    expect(s.accounts).toHaveLength(1);
    expect(s.transactions).toHaveLength(1);
  });
});

describe('accounts', () => {
  it('upsert inserts, then updates the same address in any hex spelling', () => {
    let s = upsertAccount(emptyState(), account());
    s = upsertAccount(s, account({ address: `0x000${ADDR.slice(2)}`, deployTxnHash: '0x5' }));
    expect(s.accounts).toHaveLength(1);
    expect(findAccount(s, CHAIN, ADDR)?.deployTxnHash).toBe('0x5');
  });
  it('never moves an initialized account back to initializing', () => {
    let s = upsertAccount(emptyState(), account({ status: 'initialized' }));
    s = upsertAccount(s, account({ status: 'initializing' }));
    expect(findAccount(s, CHAIN, ADDR)?.status).toBe('initialized');
  });
  it('keeps networks apart', () => {
    const s = upsertAccount(upsertAccount(emptyState(), account()), account({ chainId: OTHER, addressIndex: 3 }));
    expect(accountsOf(s, CHAIN)).toHaveLength(1);
    expect(accountsOf(s, OTHER)[0]?.addressIndex).toBe(3);
  });
  it('sorts by address index', () => {
    const s = upsertAccount(upsertAccount(emptyState(), account({ address: '0x2', addressIndex: 2 })), account());
    expect(accountsOf(s, CHAIN).map((a) => a.addressIndex)).toEqual([0, 2]);
  });
  it('marks initialized and removes; unknown accounts leave the state unchanged', () => {
    const s0 = upsertAccount(emptyState(), account());
    const s1 = markAccountInitialized(s0, CHAIN, ADDR);
    expect(findAccount(s1, CHAIN, ADDR)?.status).toBe('initialized');
    expect(markAccountInitialized(s1, CHAIN, '0x77')).toBe(s1);
    expect(removeAccount(s1, CHAIN, ADDR).accounts).toHaveLength(0);
    expect(removeAccount(s1, CHAIN, '0x77')).toBe(s1);
  });
  it('does not mutate its input', () => {
    const s0 = emptyState();
    const frozen = Object.freeze({
      ...s0,
      accounts: Object.freeze([]) as never,
      transactions: Object.freeze([]) as never,
    });
    expect(() => upsertAccount(frozen, account())).not.toThrow();
    expect(frozen.accounts).toHaveLength(0);
  });
});

describe('transaction status transitions', () => {
  it('allows only forward moves', () => {
    expect(canAdvance('RECEIVED', 'PENDING')).toBe(true);
    expect(canAdvance('PENDING', 'ACCEPTED_ON_L2')).toBe(true);
    expect(canAdvance('RECEIVED', 'REJECTED')).toBe(true);
    expect(canAdvance('ACCEPTED_ON_L2', 'PENDING')).toBe(false);
    expect(canAdvance('ACCEPTED_ON_L2', 'REJECTED')).toBe(false);
    expect(canAdvance('REJECTED', 'ACCEPTED_ON_L2')).toBe(false);
    expect(canAdvance('PENDING', 'RECEIVED')).toBe(false);
  });
  it('applies status and execution outcome, ignoring backward moves', () => {
    let s = addTransaction(emptyState(), tx());
    s = applyTransactionStatus(s, CHAIN, '0xabc', {
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'REVERTED',
      failureReason: 'boom',
    });
    expect(findTransaction(s, CHAIN, '0xABC')).toMatchObject({
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'REVERTED',
      failureReason: 'boom',
    });
    const again = applyTransactionStatus(s, CHAIN, '0xabc', { status: 'PENDING' });
    expect(again).toBe(s);
  });
  it('adding a known hash keeps one record and only advances it', () => {
    let s = addTransaction(emptyState(), tx({ status: 'PENDING' }));
    s = addTransaction(s, tx({ status: 'RECEIVED', contractFuncName: 'other' }));
    expect(s.transactions).toHaveLength(1);
    expect(s.transactions[0]).toMatchObject({ status: 'PENDING', contractFuncName: 'transfer' });
  });
  it('an accepted deploy initializes its account; a reverted or rejected deploy removes it', () => {
    const deploy = tx({ txnHash: '0xd', txnType: 'DEPLOY_ACCOUNT', nonce: '0x0' });
    const base = addTransaction(upsertAccount(emptyState(), account({ deployTxnHash: '0xd' })), deploy);
    const ok = applyTransactionStatus(base, CHAIN, '0xd', { status: 'ACCEPTED_ON_L2', executionStatus: 'SUCCEEDED' });
    expect(findAccount(ok, CHAIN, ADDR)?.status).toBe('initialized');
    const pending = applyTransactionStatus(base, CHAIN, '0xd', { status: 'PENDING' });
    expect(findAccount(pending, CHAIN, ADDR)?.status).toBe('initializing');
    const reverted = applyTransactionStatus(base, CHAIN, '0xd', {
      status: 'ACCEPTED_ON_L2',
      executionStatus: 'REVERTED',
    });
    expect(findAccount(reverted, CHAIN, ADDR)).toBeUndefined();
    const rejected = applyTransactionStatus(base, CHAIN, '0xd', { status: 'REJECTED' });
    expect(findAccount(rejected, CHAIN, ADDR)).toBeUndefined();
  });
  it("lists a sender's records newest first", () => {
    let s = addTransaction(emptyState(), tx({ txnHash: '0x1', timestamp: 10 }));
    s = addTransaction(s, tx({ txnHash: '0x2', timestamp: 30 }));
    s = addTransaction(s, tx({ txnHash: '0x3', timestamp: 20, senderAddress: '0x5' }));
    expect(transactionsOf(s, CHAIN, ADDR).map((t) => t.txnHash)).toEqual(['0x2', '0x1']);
  });
});

describe('nextNonce', () => {
  it('is the chain nonce when nothing is in flight', () => {
    expect(nextNonce(emptyState(), CHAIN, ADDR, 4n, 2000)).toBe(4n);
  });
  it('skips past in-flight records the node has not counted yet', () => {
    let s = addTransaction(emptyState(), tx({ txnHash: '0x1', nonce: '0x4', status: 'RECEIVED' }));
    s = addTransaction(s, tx({ txnHash: '0x2', nonce: '0x5', status: 'PENDING' }));
    expect(nextNonce(s, CHAIN, ADDR, 4n, 1001)).toBe(6n);
    expect(nextNonce(s, CHAIN, ADDR, 7n, 1001)).toBe(7n);
  });
  it('ignores rejected records, other senders, and records the node dropped long ago', () => {
    let s = addTransaction(emptyState(), tx({ txnHash: '0x1', nonce: '0x4', status: 'REJECTED' }));
    s = addTransaction(s, tx({ txnHash: '0x2', nonce: '0x9', senderAddress: '0x5' }));
    s = addTransaction(s, tx({ txnHash: '0x3', nonce: '0x6', status: 'RECEIVED', timestamp: 0 }));
    expect(nextNonce(s, CHAIN, ADDR, 4n, NONCE_RESERVATION_SECONDS + 1)).toBe(4n);
  });
});

describe('pruning', () => {
  it('keeps at most MAX_RECORDS_PER_CHAIN records per network, dropping the oldest final ones', () => {
    let s = emptyState();
    for (let i = 0; i < MAX_RECORDS_PER_CHAIN + 5; i++) {
      s = addTransaction(s, tx({ txnHash: `0x${(i + 1).toString(16)}`, timestamp: i, status: 'ACCEPTED_ON_L2' }));
    }
    expect(s.transactions).toHaveLength(MAX_RECORDS_PER_CHAIN);
    expect(findTransaction(s, CHAIN, '0x1')).toBeUndefined();
    expect(findTransaction(s, CHAIN, `0x${(MAX_RECORDS_PER_CHAIN + 5).toString(16)}`)).toBeDefined();
  });
  it('never drops in-flight records, and leaves other networks alone', () => {
    let s = addTransaction(emptyState(), tx({ txnHash: '0x1', timestamp: 0, status: 'RECEIVED' }));
    s = addTransaction(s, tx({ txnHash: '0x2', timestamp: 1, status: 'ACCEPTED_ON_L2' }));
    s = addTransaction(s, tx({ txnHash: '0x3', timestamp: 2, status: 'PENDING' }));
    s = addTransaction(s, tx({ txnHash: '0x4', timestamp: 0, status: 'ACCEPTED_ON_L2', chainId: OTHER }));
    const pruned = pruneTransactions(s, CHAIN, 1);
    expect(pruned.transactions.map((t) => t.txnHash).sort()).toEqual(['0x1', '0x3', '0x4']);
    expect(pruneTransactions(s, CHAIN, 10)).toBe(s);
  });
});
