/**
 * The state store: every read-modify-write goes through one mutex, so concurrent updates are never lost even when
 * `snap_manageState` is slow. `snap_manageState` is stood in for by an in-memory store with delays (the wallet's
 * storage, not the chain).
 */
import { getState, updateState } from '../../src/state/store';
import { accountsOf, addTransaction, emptyState, type SnapState, upsertAccount } from '../../src/state/transitions';

const CHAIN = '0x534e5f5345504f4c4941';
let stored: unknown = null;
let writes = 0;
const delay = () => new Promise((r) => setTimeout(r, Math.random() * 5));

beforeEach(() => {
  stored = null;
  writes = 0;
  (globalThis as { snap?: unknown }).snap = {
    request: async ({ method, params }: { method: string; params: { operation: string; newState?: unknown } }) => {
      if (method !== 'snap_manageState') throw new Error(`unexpected ${method}`);
      await delay();
      if (params.operation === 'get') return stored === null ? null : structuredClone(stored);
      if (params.operation === 'update') {
        writes++;
        stored = structuredClone(params.newState);
        return null;
      }
      throw new Error(`unexpected operation ${params.operation}`);
    },
  };
});

describe('state store', () => {
  it('reads a fresh install as the empty state', async () => {
    expect(await getState()).toEqual(emptyState());
  });

  it('loses no update when 30 requests write concurrently', async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        updateState((s) =>
          i % 2
            ? upsertAccount(s, {
                chainId: CHAIN,
                address: `0x${(i + 1).toString(16)}`,
                addressIndex: i,
                publicKey: '0x1',
                classHash: '0x2',
                status: 'initialized',
              })
            : addTransaction(s, {
                chainId: CHAIN,
                txnHash: `0x${(1000 + i).toString(16)}`,
                txnType: 'INVOKE',
                senderAddress: '0x1',
                contractAddress: '0x2',
                contractFuncName: 'f',
                contractCallData: [],
                nonce: `0x${i.toString(16)}`,
                status: 'RECEIVED',
                timestamp: i,
              }),
        ),
      ),
    );
    const s = await getState();
    expect(accountsOf(s, CHAIN)).toHaveLength(15);
    expect(s.transactions).toHaveLength(15);
  });

  it('does not write when a transition changes nothing', async () => {
    await updateState((s: SnapState) => s);
    expect(writes).toBe(0);
  });
});
