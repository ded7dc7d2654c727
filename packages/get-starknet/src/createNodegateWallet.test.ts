import { describe, expect, it } from 'vitest';
import { SN_MAIN, SN_SEPOLIA } from './constants.js';
import { createNodegateWallet } from './createNodegateWallet.js';
import type { Eip1193Provider } from './types.js';

const SNAP = 'npm:@nodegate/starknet-snap';
const A0 = '0x0123';
const A1 = '0x0456';

type Sent = { method: string; params?: unknown };
type Script = (method: string, params: unknown) => unknown;

/** A scripted EIP-1193 provider: records every request; `script` answers (throw to reject). */
function scripted(script: Script, installed = true) {
  const sent: Sent[] = [];
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      sent.push({ method, params });
      if (method === 'wallet_getSnaps')
        return installed ? { [SNAP]: { id: SNAP, version: '0.1.0', enabled: true } } : {};
      if (method === 'wallet_requestSnaps') {
        installed = true;
        return { [SNAP]: { id: SNAP, version: '0.1.0', enabled: true } };
      }
      if (method === 'wallet_invokeSnap') {
        const { request } = params as { request: { method: string; params: unknown } };
        return script(request.method, request.params);
      }
      throw Object.assign(new Error(`unexpected ${method}`), { code: -32601 });
    },
  };
  const snapCalls = () =>
    sent
      .filter((s) => s.method === 'wallet_invokeSnap')
      .map((s) => (s.params as { request: { method: string; params: unknown } }).request);
  return { provider, sent, snapCalls };
}

const stored = (...addresses: string[]) => addresses.map((address, addressIndex) => ({ address, addressIndex }));
const rpcError = (code: number, message: string, data?: unknown) =>
  Object.assign(new Error(message), { code, ...(data ? { data } : {}) });

async function connected(script: Script = (m) => (m === 'stk_getStoredUserAccounts' ? stored(A0) : null)) {
  // Stored accounts default to [A0] when the script does not answer them.
  const s = scripted((m, p) => {
    if (m === 'stk_getStoredUserAccounts') return script(m, p) ?? stored(A0);
    return script(m, p);
  });
  const wallet = createNodegateWallet({ provider: s.provider });
  await wallet.request({ type: 'wallet_requestAccounts' });
  s.sent.length = 0;
  return { ...s, wallet };
}

describe('wallet object: identity and static answers', () => {
  it('has the get-starknet window object shape and answers specs / API versions without MetaMask', async () => {
    const s = scripted(() => null);
    const wallet = createNodegateWallet({ provider: s.provider });
    for (const key of ['id', 'name', 'icon', 'version', 'request', 'on', 'off']) expect(key in wallet).toBe(true);
    expect(await wallet.request({ type: 'wallet_supportedSpecs' })).toEqual(['0.10']);
    expect(await wallet.request({ type: 'wallet_supportedWalletApi' })).toEqual(['0.8']);
    expect(await wallet.request({ type: 'wallet_requestChainId' })).toBe(SN_SEPOLIA);
    expect(s.sent).toEqual([]);
  });

  it('rejects an unsupported api_version with 162 and an unknown method with 163', async () => {
    const wallet = createNodegateWallet({ provider: scripted(() => null).provider });
    await expect(
      wallet.request({ type: 'wallet_requestChainId', params: { api_version: '9.9' } }),
    ).rejects.toMatchObject({
      code: 162,
    });
    await expect(wallet.request({ type: 'wallet_nope' })).rejects.toMatchObject({ code: 163 });
  });
});

describe('wallet_requestAccounts and wallet_getPermissions', () => {
  it('installs the snap, returns the stored accounts in index order and fires accountsChanged once', async () => {
    const s = scripted((m) =>
      m === 'stk_getStoredUserAccounts'
        ? [
            { address: A1, addressIndex: 1 },
            { address: A0, addressIndex: 0 },
          ]
        : null,
    );
    const wallet = createNodegateWallet({ provider: s.provider });
    const events: unknown[] = [];
    wallet.on('accountsChanged', (a?: string[]) => events.push(a));
    expect(await wallet.request({ type: 'wallet_requestAccounts' })).toEqual([A0, A1]);
    expect(s.sent[0]).toEqual({ method: 'wallet_requestSnaps', params: { [SNAP]: {} } });
    expect(s.sent[1]).toEqual({
      method: 'wallet_invokeSnap',
      params: { snapId: SNAP, request: { method: 'stk_getStoredUserAccounts', params: { chainId: SN_SEPOLIA } } },
    });
    expect(s.sent).toHaveLength(2);
    expect(await wallet.request({ type: 'wallet_requestAccounts' })).toEqual([A0, A1]);
    expect(events).toEqual([[A0, A1]]);
    expect(await wallet.request({ type: 'wallet_getPermissions' })).toEqual(['accounts']);
    expect(wallet.selectedAddress).toBe(A0);
  });

  it('concurrent connects share one wallet_requestSnaps', async () => {
    const s = scripted(() => stored(A0));
    const wallet = createNodegateWallet({ provider: s.provider });
    const got = await Promise.all([1, 2, 3].map(() => wallet.request({ type: 'wallet_requestAccounts' })));
    expect(got).toEqual([[A0], [A0], [A0]]);
    expect(s.sent.filter((x) => x.method === 'wallet_requestSnaps')).toHaveLength(1);
  });

  it('recovers accounts (stk_recoverAccounts) when none are stored', async () => {
    const s = scripted((m) => (m === 'stk_recoverAccounts' ? [{ address: A0, addressIndex: 0, deployed: false }] : []));
    const wallet = createNodegateWallet({ provider: s.provider });
    expect(await wallet.request({ type: 'wallet_requestAccounts' })).toEqual([A0]);
    expect(s.snapCalls()).toEqual([
      { method: 'stk_getStoredUserAccounts', params: { chainId: SN_SEPOLIA } },
      {
        method: 'stk_recoverAccounts',
        params: { chainId: SN_SEPOLIA, startScanIndex: 0, maxScanned: 1, maxMissed: 1 },
      },
    ]);
  });

  it('silent mode sends no popup-opening request: snap not installed → [] after wallet_getSnaps only', async () => {
    const s = scripted(() => stored(A0), false);
    const wallet = createNodegateWallet({ provider: s.provider });
    expect(await wallet.request({ type: 'wallet_requestAccounts', params: { silent_mode: true } })).toEqual([]);
    expect(s.sent.map((x) => x.method)).toEqual(['wallet_getSnaps']);
    expect(await wallet.request({ type: 'wallet_getPermissions' })).toEqual([]);
  });

  it('silent mode with the snap installed reads stored accounts only (no wallet_requestSnaps, no recovery)', async () => {
    const s = scripted((m) => (m === 'stk_getStoredUserAccounts' ? [] : [{ address: A0 }]));
    const wallet = createNodegateWallet({ provider: s.provider });
    expect(await wallet.request({ type: 'wallet_requestAccounts', params: { silent_mode: true } })).toEqual([]);
    expect(s.sent.map((x) => x.method)).toEqual(['wallet_getSnaps', 'wallet_invokeSnap']);
    expect(s.snapCalls().map((c) => c.method)).toEqual(['stk_getStoredUserAccounts']);
    expect(s.sent.some((x) => x.method === 'wallet_requestSnaps')).toBe(false);
  });

  it('a refused connection (4001 from wallet_requestSnaps) is 113', async () => {
    const provider: Eip1193Provider = {
      async request() {
        throw rpcError(4001, 'User rejected the request.');
      },
    };
    const wallet = createNodegateWallet({ provider });
    await expect(wallet.request({ type: 'wallet_requestAccounts' })).rejects.toMatchObject({
      code: 113,
      message: 'An error occurred (USER_REFUSED_OP)',
      data: 'User rejected the request.',
    });
  });
});

describe('transactions and signing', () => {
  it('wallet_addInvokeTransaction sends all calls in one stk_executeTxn (starknet.js {calls} and the spec array)', async () => {
    const { wallet, snapCalls } = await connected((m) =>
      m === 'stk_executeTxn' ? { code: 'TRANSACTION_RECEIVED', transaction_hash: '0xabc' } : null,
    );
    const calls = [
      { contract_address: '0x111', entry_point: 'transfer', calldata: ['0x1', '5', '0x0'] },
      { contract_address: '0x222', entry_point: 'approve', calldata: [] },
    ];
    expect(await wallet.request({ type: 'wallet_addInvokeTransaction', params: { calls } })).toEqual({
      transaction_hash: '0xabc',
    });
    expect(await wallet.request({ type: 'wallet_addInvokeTransaction', params: calls })).toEqual({
      transaction_hash: '0xabc',
    });
    const expected = {
      method: 'stk_executeTxn',
      params: {
        chainId: SN_SEPOLIA,
        senderAddress: A0,
        calls: [
          { contractAddress: '0x111', entrypoint: 'transfer', calldata: ['0x1', '5', '0x0'] },
          { contractAddress: '0x222', entrypoint: 'approve', calldata: [] },
        ],
      },
    };
    expect(snapCalls()).toEqual([expected, expected]);
  });

  it('a bad invoke payload is 114 before MetaMask is asked', async () => {
    const { wallet, sent } = await connected();
    for (const params of [
      { calls: [] },
      { calls: [{ entry_point: 'x' }] },
      { calls: [{ contract_address: '0x1', entry_point: 'x', calldata: ['zz'] }] },
    ]) {
      await expect(wallet.request({ type: 'wallet_addInvokeTransaction', params })).rejects.toMatchObject({
        code: 114,
      });
    }
    expect(sent).toEqual([]);
  });

  it('maps snap errors: 4001 → 113, -32602 → 114, -32003 → 115, chain error → 163 with the message in data', async () => {
    const errors = [
      [rpcError(4001, 'User rejected the request.'), 113],
      [rpcError(-32602, 'Invalid parameter "calls": bad', { param: 'calls' }), 114],
      [rpcError(-32003, 'account already deployed'), 115],
      [rpcError(-32602, 'Invalid parameter "chainId"', { param: 'chainId' }), 112],
      [rpcError(54, "Account balance is smaller than the transaction's maximal fee"), 163],
    ] as const;
    for (const [error, code] of errors) {
      const { wallet } = await connected((m) => {
        if (m === 'stk_getStoredUserAccounts') return stored(A0);
        throw error;
      });
      const call = { contract_address: '0x1', entry_point: 'f' };
      const got = await wallet
        .request({ type: 'wallet_addInvokeTransaction', params: { calls: [call] } })
        .catch((e) => e);
      expect(got).toMatchObject({ code, data: error.message });
    }
  });

  it('wallet_signTypedData → stk_signMessage with the typed data as JSON', async () => {
    const td = { types: { StarknetDomain: [] }, primaryType: 'Mail', domain: { name: 'd' }, message: { a: 1 } };
    const { wallet, snapCalls } = await connected((m) => (m === 'stk_signMessage' ? ['0x1', '0x2'] : null));
    expect(await wallet.request({ type: 'wallet_signTypedData', params: td })).toEqual(['0x1', '0x2']);
    expect(snapCalls()).toEqual([
      {
        method: 'stk_signMessage',
        params: { chainId: SN_SEPOLIA, typedDataMessage: JSON.stringify(td), signerAddress: A0 },
      },
    ]);
    await expect(wallet.request({ type: 'wallet_signTypedData', params: { message: {} } })).rejects.toMatchObject({
      code: 114,
    });
  });

  it('wallet_addDeclareTransaction → stk_declareContract', async () => {
    const { wallet, snapCalls } = await connected((m) =>
      m === 'stk_declareContract' ? { transaction_hash: '0x7', class_hash: '0x8' } : null,
    );
    const contract_class = {
      sierra_program: ['0x1'],
      contract_class_version: '0.1.0',
      entry_points_by_type: {},
      abi: '[]',
    };
    expect(
      await wallet.request({
        type: 'wallet_addDeclareTransaction',
        params: { compiled_class_hash: '0x5', contract_class },
      }),
    ).toEqual({ transaction_hash: '0x7', class_hash: '0x8' });
    expect(snapCalls()).toEqual([
      {
        method: 'stk_declareContract',
        params: { chainId: SN_SEPOLIA, senderAddress: A0, contract: contract_class, compiledClassHash: '0x5' },
      },
    ]);
  });

  it('wallet_deploymentData → stk_getDeploymentData; already deployed → 115', async () => {
    const data = { address: A0, class_hash: '0x9', salt: '0x3', calldata: ['0x3', '0x0'], version: 1 };
    const { wallet, snapCalls } = await connected((m) => (m === 'stk_getDeploymentData' ? data : null));
    expect(await wallet.request({ type: 'wallet_deploymentData' })).toEqual(data);
    expect(snapCalls()).toEqual([{ method: 'stk_getDeploymentData', params: { chainId: SN_SEPOLIA, address: A0 } }]);
    const deployed = await connected((m) => {
      if (m === 'stk_getStoredUserAccounts') return stored(A0);
      throw rpcError(-32003, 'The account is already deployed');
    });
    await expect(deployed.wallet.request({ type: 'wallet_deploymentData' })).rejects.toMatchObject({ code: 115 });
  });

  it('wallet_watchAsset → stk_watchAsset; a non-ERC20 type or address is NOT_ERC20 (111)', async () => {
    const { wallet, snapCalls } = await connected((m) => (m === 'stk_watchAsset' ? true : null));
    const asset = {
      type: 'ERC20',
      options: { address: '0x4718', symbol: 'STRK', decimals: 18, name: 'Starknet Token' },
    };
    expect(await wallet.request({ type: 'wallet_watchAsset', params: asset })).toBe(true);
    expect(snapCalls()).toEqual([
      {
        method: 'stk_watchAsset',
        params: {
          chainId: SN_SEPOLIA,
          tokenAddress: '0x4718',
          tokenName: 'Starknet Token',
          tokenSymbol: 'STRK',
          tokenDecimals: 18,
        },
      },
    ]);
    const sentBefore = snapCalls().length;
    await expect(
      wallet.request({ type: 'wallet_watchAsset', params: { type: 'ERC721', options: { address: '0x1' } } }),
    ).rejects.toMatchObject({ code: 111, message: 'An error occurred (NOT_ERC20)' });
    expect(snapCalls()).toHaveLength(sentBefore); // refused before MetaMask is asked
    // no type at all, or no address: a bad payload
    for (const params of [{ options: { address: '0x1' } }, { type: 'ERC20', options: {} }]) {
      await expect(wallet.request({ type: 'wallet_watchAsset', params })).rejects.toMatchObject({ code: 114 });
    }
    // the snap finds the address is not a token (its NotErc20, -32008): 111 with the snap's words in data
    const notToken = await connected((m) => {
      if (m === 'stk_getStoredUserAccounts') return stored(A0);
      throw rpcError(-32008, '0x1 is not an ERC20 token on Starknet Sepolia: name() failed', { tokenAddress: '0x1' });
    });
    await expect(
      notToken.wallet.request({ type: 'wallet_watchAsset', params: { type: 'ERC20', options: { address: '0x1' } } }),
    ).rejects.toMatchObject({ code: 111, data: '0x1 is not an ERC20 token on Starknet Sepolia: name() failed' });
  });
});

describe('networks and events', () => {
  it('wallet_switchStarknetChain → stk_switchNetwork, then networkChanged and accountsChanged fire once', async () => {
    const { wallet, snapCalls } = await connected((m, p) => {
      if (m === 'stk_getStoredUserAccounts')
        return (p as { chainId: string }).chainId === SN_MAIN ? stored(A1) : stored(A0);
      return true;
    });
    const net: unknown[] = [];
    const acc: unknown[] = [];
    const onNet = (c?: string, a?: string[]) => net.push([c, a]);
    wallet.on('networkChanged', onNet);
    wallet.on('accountsChanged', (a?: string[]) => acc.push(a));
    expect(await wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: SN_MAIN } })).toBe(true);
    expect(snapCalls()).toEqual([
      { method: 'stk_switchNetwork', params: { chainId: SN_MAIN } },
      { method: 'stk_getStoredUserAccounts', params: { chainId: SN_MAIN } },
    ]);
    expect(net).toEqual([[SN_MAIN, [A1]]]);
    expect(acc).toEqual([[A1]]);
    expect(await wallet.request({ type: 'wallet_requestChainId' })).toBe(SN_MAIN);
    // Same chain again (short-string form): true, nothing sent, no event.
    expect(await wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: 'SN_MAIN' } })).toBe(true);
    expect(net).toHaveLength(1);
    wallet.off('networkChanged', onNet);
    await wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: SN_SEPOLIA } });
    expect(net).toHaveLength(1);
    expect(acc).toEqual([[A1], [A0]]);
  });

  it('an unknown chain is 112 (switch) and adding a chain answers the spec error (163), known chains true', async () => {
    const { wallet, sent } = await connected();
    await expect(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: '0x1234' } }),
    ).rejects.toMatchObject({ code: 112 });
    await expect(
      wallet.request({ type: 'wallet_addStarknetChain', params: { id: 'x', chain_id: '0x1234', chain_name: 'x' } }),
    ).rejects.toMatchObject({ code: 163 });
    expect(
      await wallet.request({
        type: 'wallet_addStarknetChain',
        params: { id: 's', chain_id: SN_SEPOLIA, chain_name: 'Sepolia' },
      }),
    ).toBe(true);
    expect(sent).toEqual([]);
  });

  it('a refused switch is 113 and leaves the chain unchanged; silent switch is 117', async () => {
    const { wallet } = await connected((m) => {
      if (m === 'stk_getStoredUserAccounts') return stored(A0);
      throw rpcError(4001, 'User rejected the request.');
    });
    await expect(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: SN_MAIN } }),
    ).rejects.toMatchObject({ code: 113 });
    expect(await wallet.request({ type: 'wallet_requestChainId' })).toBe(SN_SEPOLIA);
    await expect(
      wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: SN_MAIN, silent_mode: true } }),
    ).rejects.toMatchObject({ code: 117 });
  });
});
