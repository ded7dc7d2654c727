import { RpcProvider, WalletAccount, WalletAccountV5 } from 'starknet';
import { describe, expect, it } from 'vitest';
import { SN_MAIN, SN_SEPOLIA } from './constants.js';
import { createNodegateWallet } from './createNodegateWallet.js';
import { createWalletStandardWallet } from './createWalletStandardWallet.js';
import { SnapSigner } from './SnapSigner.js';
import type { Eip1193Provider, WindowLike } from './types.js';

const SNAP = 'local:http://localhost:8080'; // the default snap id (what npm run snap serves)
const A0 = '0x0123';
const A1 = '0x0456';

type Sent = { method: string; params?: unknown };
type Script = (method: string, params: unknown) => unknown;

/** The network selected in the scripted snap (what stk_getCurrentNetwork answers; a successful switch sets it). */
interface SnapNetwork {
  chain: string;
}

/**
 * A scripted EIP-1193 provider: records every request; `script` answers snap methods (throw to reject), except
 * `stk_getCurrentNetwork`, answered from `network` (which a `stk_switchNetwork` the script accepts updates).
 */
function scripted(script: Script, installed = true, network: SnapNetwork = { chain: SN_SEPOLIA }) {
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
        if (request.method === 'stk_getCurrentNetwork') {
          return { chainId: network.chain, name: network.chain === SN_MAIN ? 'Starknet Mainnet' : 'Starknet Sepolia' };
        }
        const answer = script(request.method, request.params);
        if (request.method === 'stk_switchNetwork') network.chain = (request.params as { chainId: string }).chainId;
        return answer;
      }
      throw Object.assign(new Error(`unexpected ${method}`), { code: -32601 });
    },
  };
  const snapCalls = () =>
    sent
      .filter((s) => s.method === 'wallet_invokeSnap')
      .map((s) => (s.params as { request: { method: string; params: unknown } }).request);
  return { provider, sent, snapCalls, network };
}

/** A hash as the wallet API answers it (PADDED_FELT). */
const pad = (h: string) => `0x${h.slice(2).padStart(64, '0')}`;
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
      params: { snapId: SNAP, request: { method: 'stk_getCurrentNetwork', params: {} } },
    });
    expect(s.sent[2]).toEqual({
      method: 'wallet_invokeSnap',
      params: { snapId: SNAP, request: { method: 'stk_getStoredUserAccounts', params: { chainId: SN_SEPOLIA } } },
    });
    expect(s.sent).toHaveLength(3);
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
      { method: 'stk_getCurrentNetwork', params: {} },
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
    expect(s.sent.map((x) => x.method)).toEqual(['wallet_getSnaps', 'wallet_invokeSnap', 'wallet_invokeSnap']);
    expect(s.snapCalls().map((c) => c.method)).toEqual(['stk_getCurrentNetwork', 'stk_getStoredUserAccounts']);
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
      transaction_hash: pad('0xabc'),
    });
    expect(await wallet.request({ type: 'wallet_addInvokeTransaction', params: calls })).toEqual({
      transaction_hash: pad('0xabc'),
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
    ).toEqual({ transaction_hash: pad('0x7'), class_hash: pad('0x8') });
    expect(snapCalls()).toEqual([
      {
        method: 'stk_declareContract',
        params: { chainId: SN_SEPOLIA, senderAddress: A0, contract: contract_class, compiledClassHash: '0x5' },
      },
    ]);
  });

  it('wallet_deploymentData before connecting is DEPLOYMENT_DATA_NOT_AVAILABLE (116), MetaMask not asked', async () => {
    const s = scripted(() => null);
    const wallet = createNodegateWallet({ provider: s.provider });
    await expect(wallet.request({ type: 'wallet_deploymentData' })).rejects.toMatchObject({
      code: 116,
      message: 'An error occurred (DEPLOYMENT_DATA_NOT_AVAILABLE)',
    });
    expect(s.sent).toEqual([]);
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

describe("the snap's selected network: page reloads, other tabs, starknet.js handlers", () => {
  /** Stored accounts per chain: A0 on Sepolia, A1 on mainnet. */
  const perChain = (m: string, p: unknown) => {
    if (m === 'stk_getStoredUserAccounts')
      return (p as { chainId: string }).chainId === SN_MAIN ? stored(A1) : stored(A0);
    if (m === 'stk_executeTxn') return { code: 'TRANSACTION_RECEIVED', transaction_hash: '0xabc' };
    return true;
  };
  /** A page's window: an EventTarget that can be focused. */
  const pageWindow = () => new EventTarget() as unknown as WindowLike;
  const nodeUrl = 'http://127.0.0.1:9'; // never called: the tests only read the providers' chain ids

  it('connecting takes the network selected in the snap (a reload after a switch), not the page default', async () => {
    const s = scripted(perChain, true, { chain: SN_MAIN });
    const wallet = createNodegateWallet({ provider: s.provider }); // the page still assumes SN_SEPOLIA
    const events: unknown[] = [];
    wallet.on('networkChanged', (c?: string, a?: string[]) => events.push(['network', c, a]));
    wallet.on('accountsChanged', (a?: string[]) => events.push(['accounts', a]));
    expect(await wallet.request({ type: 'wallet_requestChainId' })).toBe(SN_SEPOLIA);
    expect(await wallet.request({ type: 'wallet_requestAccounts' })).toEqual([A1]);
    expect(s.snapCalls().slice(0, 2)).toEqual([
      { method: 'stk_getCurrentNetwork', params: {} },
      { method: 'stk_getStoredUserAccounts', params: { chainId: SN_MAIN } },
    ]);
    expect(events).toEqual([
      ['network', SN_MAIN, [A1]],
      ['accounts', [A1]],
    ]);
    expect(await wallet.request({ type: 'wallet_requestChainId' })).toBe(SN_MAIN);
    // what is sent next names the snap's network
    await wallet.request({
      type: 'wallet_addInvokeTransaction',
      params: { calls: [{ contract_address: '0x1', entry_point: 'f' }] },
    });
    expect(s.snapCalls().at(-1)).toMatchObject({
      method: 'stk_executeTxn',
      params: { chainId: SN_MAIN, senderAddress: A1 },
    });
    // connecting again changes nothing: no events
    await wallet.request({ type: 'wallet_requestAccounts', params: { silent_mode: true } });
    expect(events).toHaveLength(2);
  });

  it('a silent reconnect learns the network too (never a popup)', async () => {
    const s = scripted(perChain, true, { chain: SN_MAIN });
    const wallet = createNodegateWallet({ provider: s.provider });
    expect(await wallet.request({ type: 'wallet_requestAccounts', params: { silent_mode: true } })).toEqual([A1]);
    expect(wallet.chainId).toBe(SN_MAIN);
    expect(s.sent.map((x) => x.method)).not.toContain('wallet_requestSnaps');
  });

  it('when the page gets the focus back, a network switched elsewhere is picked up (events once, no polling)', async () => {
    const win = pageWindow();
    const s = scripted(perChain);
    const wallet = createNodegateWallet({ provider: s.provider, window: win });
    // not connected yet: a focus asks nothing
    win.dispatchEvent(new Event('focus'));
    await new Promise((r) => setTimeout(r, 20));
    expect(s.sent).toEqual([]);
    await wallet.request({ type: 'wallet_requestAccounts' });
    const events: unknown[] = [];
    wallet.on('networkChanged', (c?: string, a?: string[]) => events.push(['network', c, a]));
    wallet.on('accountsChanged', (a?: string[]) => events.push(['accounts', a]));
    // the snap's network unchanged: a focus re-reads it and fires nothing
    win.dispatchEvent(new Event('focus'));
    await expect.poll(() => s.snapCalls().filter((c) => c.method === 'stk_getCurrentNetwork').length).toBe(2);
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([]);
    // another tab switched the snap to mainnet
    s.network.chain = SN_MAIN;
    win.dispatchEvent(new Event('focus'));
    await expect.poll(() => events.length).toBe(2);
    expect(events).toEqual([
      ['network', SN_MAIN, [A1]],
      ['accounts', [A1]],
    ]);
    expect(wallet.chainId).toBe(SN_MAIN);
    // nothing runs between focuses: no timers (the provider saw nothing more after the last resync)
    const sentAfter = s.sent.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(s.sent.length).toBe(sentAfter);
  });

  it('starknet.js WalletAccount: onNetworkChanged / onAccountChange see a learned network and a switch; its provider follows', async () => {
    const s = scripted(perChain, true, { chain: SN_MAIN });
    const wallet = createNodegateWallet({ provider: s.provider });
    // The dApp restores its account from before the reload and reconnects silently.
    const account = new WalletAccount({
      provider: new RpcProvider({ nodeUrl, chainId: SN_SEPOLIA as never }),
      walletProvider: wallet as never,
      address: A0,
    });
    const networks: unknown[] = [];
    const accounts: unknown[] = [];
    account.onNetworkChanged((c?: string, a?: string[]) => networks.push([c, a]));
    account.onAccountChange((a?: string[]) => accounts.push(a));
    expect(await account.requestAccounts(true)).toEqual([A1]);
    expect(networks).toEqual([[SN_MAIN, [A1]]]);
    expect(accounts).toEqual([[A1]]);
    expect(account.address).toBe(A1);
    expect(await account.provider.getChainId()).toBe(SN_MAIN); // set by WalletAccount's own networkChanged handler
    await account.switchStarknetChain(SN_SEPOLIA as never);
    expect(networks).toEqual([
      [SN_MAIN, [A1]],
      [SN_SEPOLIA, [A0]],
    ]);
    expect(accounts).toEqual([[A1], [A0]]);
    expect(account.address).toBe(A0);
    expect(await account.provider.getChainId()).toBe(SN_SEPOLIA);
  });

  it('starknet.js WalletAccountV5 over the wallet-standard wallet: onChange sees the account on the new chain', async () => {
    const s = scripted(perChain);
    const wallet = createNodegateWallet({ provider: s.provider });
    const standard = createWalletStandardWallet(wallet);
    const { accounts } = await standard.features['standard:connect'].connect();
    expect(accounts.map((a) => [a.address, a.chains])).toEqual([[A0, [`starknet:${SN_SEPOLIA}`]]]);
    const account = new WalletAccountV5({
      provider: new RpcProvider({ nodeUrl, chainId: SN_SEPOLIA as never }),
      walletProvider: standard as never,
      address: A0,
    });
    const changes: { accounts?: readonly { address: string; chains: readonly string[] }[] }[] = [];
    account.onChange((c) => changes.push(c as never));
    await wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: SN_MAIN } });
    expect(changes.map((c) => c.accounts?.map((a) => [a.address, a.chains]))).toEqual([
      [[A1, [`starknet:${SN_MAIN}`]]], // networkChanged: the account already on the new chain
      [[A1, [`starknet:${SN_MAIN}`]]], // accountsChanged
    ]);
    expect(account.address).toBe(A1);
    expect(await account.provider.getChainId()).toBe(SN_MAIN);
    expect(standard.chains).toEqual([`starknet:${SN_MAIN}`, `starknet:${SN_SEPOLIA}`]); // what it serves, unchanged
    account.unsubscribeChange();
  });

  it("SnapSigner({ wallet }) signs on the wallet's current network; a signer with a fixed chain keeps it", async () => {
    const s = scripted((m, p) => (m === 'stk_extractPublicKey' ? '0xabc' : perChain(m, p)));
    const wallet = createNodegateWallet({ provider: s.provider });
    await wallet.request({ type: 'wallet_requestAccounts' });
    const following = new SnapSigner({ wallet, address: A0 });
    const fixed = new SnapSigner({ snap: wallet.snap, address: A0, chainId: SN_SEPOLIA });
    await following.getPubKey();
    await wallet.request({ type: 'wallet_switchStarknetChain', params: { chainId: SN_MAIN } });
    await following.getPubKey();
    await fixed.getPubKey();
    const asked = s.snapCalls().filter((c) => c.method === 'stk_extractPublicKey');
    expect(asked.map((c) => (c.params as { chainId: string }).chainId)).toEqual([SN_SEPOLIA, SN_MAIN, SN_SEPOLIA]);
  });
});
