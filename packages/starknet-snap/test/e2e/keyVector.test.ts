import { accountAddress } from '../../src/lib/keys';
import { KEY_VECTOR } from '../vectors';
import { backend, install, PHRASES, result, send } from './helpers';

describe('key vector through the snap', () => {
  it('the default recovery phrase at index 0 gives the reference public key and its Argent-style address', async () => {
    const snap = await install(PHRASES.default);
    const { address } = await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 0 }));
    expect(address).toBe(accountAddress(KEY_VECTOR.publicKey, backend.accountClassHash));
    const pub = await result<string>(send(snap, 'stk_extractPublicKey', { userAddress: address }));
    expect(pub).toBe(KEY_VECTOR.publicKey);
  });
});
