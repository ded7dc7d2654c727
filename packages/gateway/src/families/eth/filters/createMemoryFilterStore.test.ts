import { createMemoryFilterStore } from './createMemoryFilterStore.js';
import { CONTRACT_TIMEOUT_MS, filterStoreContract } from './filterStoreContract.js';

filterStoreContract('memory', async () => ({ store: createMemoryFilterStore({ timeoutMs: CONTRACT_TIMEOUT_MS }) }));
