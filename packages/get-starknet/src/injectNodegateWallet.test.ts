import * as getStarknetV4 from 'get-starknet-core';
import { Account, RpcProvider } from 'starknet';
import { afterEach, describe, expect, it } from 'vitest';
import { SN_SEPOLIA } from './constants.js';
import { findMetaMask } from './findMetaMask.js';
import { injectNodegateWallet } from './injectNodegateWallet.js';
import { SnapSigner } from './SnapSigner.js';
import type { Eip1193Provider, WindowLike } from './types.js';

interface GetStarknetV4 {
  getAvailableWallets(): Promise<{ id: string }[]>;
  getAuthorizedWallets(): Promise<{ id: string }[]>;
  enable(wallet: unknown): Promise<unknown>;
}

const SNAP = 'local:http://localhost:8080'; // the default snap id (what npm run snap serves)
const A0 = '0x0123';

const tagOf = (p: unknown) => (p as { tag: string }).tag;

function fakeWindow(): WindowLike {
  return new EventTarget() as unknown as WindowLike;
}

/**
 * A MetaMask-like provider with the snap installed, on Sepolia, one stored account (A0); `stk_executeTxn` answers hash
 * 0xfeed, other snap methods echo their request. Every method goes to `log`, every request to `sent`.
 */
function provider(
  tag: string,
  log: string[] = [],
  sent: { method: string; params?: unknown }[] = [],
): Eip1193Provider & { tag: string } {
  return {
    tag,
    async request({ method, params }) {
      log.push(method);
      sent.push({ method, params });
      if (method === 'wallet_getSnaps' || method === 'wallet_requestSnaps') return { [SNAP]: { enabled: true } };
      const { request } = params as { request: { method: string; params: Record<string, unknown> } };
      switch (request.method) {
        case 'stk_getCurrentNetwork':
          return { chainId: SN_SEPOLIA, name: 'Starknet Sepolia' };
        case 'stk_getStoredUserAccounts':
          return [{ address: A0, addressIndex: 0 }];
        case 'stk_executeTxn':
          return { code: 'TRANSACTION_RECEIVED', transaction_hash: '0xfeed' };
        default:
          return { echo: request };
      }
    },
  };
}

function announce(win: WindowLike, rdns: string, p: Eip1193Provider) {
  win.addEventListener('eip6963:requestProvider', () => {
    win.dispatchEvent(
      new CustomEvent('eip6963:announceProvider', {
        detail: { info: { uuid: rdns, name: rdns, icon: '', rdns }, provider: p },
      }),
    );
  });
}

describe('findMetaMask (EIP-6963)', () => {
  it('takes io.metamask over io.metamask.flask, ignores other wallets, falls back to window.ethereum', async () => {
    const win = fakeWindow();
    announce(win, 'com.other.wallet', provider('other'));
    announce(win, 'io.metamask.flask', provider('flask'));
    announce(win, 'io.metamask', provider('stable'));
    expect(tagOf(await findMetaMask(win))).toBe('stable');

    const flaskOnly = fakeWindow();
    announce(flaskOnly, 'io.metamask.flask', provider('flask'));
    expect(tagOf(await findMetaMask(flaskOnly))).toBe('flask');

    const legacy = fakeWindow();
    announce(legacy, 'com.other.wallet', provider('other'));
    legacy.ethereum = provider('injected');
    expect(tagOf(await findMetaMask(legacy, { timeoutMs: 50 }))).toBe('injected');
    expect(await findMetaMask(fakeWindow(), { timeoutMs: 20 })).toBeUndefined();
    // A window without events (Node's globalThis): no EIP-6963, window.ethereum only.
    expect(await findMetaMask({ ethereum: provider('bare') } as unknown as WindowLike)).toHaveProperty('tag', 'bare');
    expect(await findMetaMask({} as unknown as WindowLike)).toBeUndefined();
  });

  it('injects into a window without events (no wallet-standard registration there)', async () => {
    const bare = {} as unknown as WindowLike;
    const wallet = injectNodegateWallet({ window: bare, provider: provider('p') });
    expect(bare.starknet_nodegate).toBe(wallet);
    expect(await wallet.request({ type: 'wallet_requestAccounts' })).toEqual([A0]);
  });

  it('the wallet uses the announced MetaMask when no provider is given', async () => {
    const win = fakeWindow();
    const log: string[] = [];
    announce(win, 'io.metamask', provider('stable', log));
    const wallet = injectNodegateWallet({ window: win });
    expect(await wallet.request({ type: 'wallet_requestAccounts' })).toEqual([A0]);
    expect(log).toEqual(['wallet_requestSnaps', 'wallet_invokeSnap', 'wallet_invokeSnap']);
  });
});

describe('discovery', () => {
  const g = globalThis as unknown as Record<string, unknown>;
  afterEach(() => {
    delete g.window;
  });

  it('get-starknet v4 finds window.starknet_nodegate and connects through enable()', async () => {
    const win = fakeWindow();
    const wallet = injectNodegateWallet({ window: win, provider: provider('p') });
    expect(win.starknet_nodegate).toBe(wallet);
    const { getStarknet } = getStarknetV4 as unknown as { getStarknet: (o: unknown) => GetStarknetV4 };
    const gs = getStarknet({
      windowObject: win as unknown as Record<string, unknown>,
      storageFactoryImplementation: () => ({ get: () => null, set: () => {}, delete: () => {} }),
    } as never);
    const available = await gs.getAvailableWallets();
    expect(available.map((w: { id: string }) => w.id)).toEqual(['nodegate']);
    expect((await gs.getAuthorizedWallets()).map((w: { id: string }) => w.id)).toEqual(['nodegate']);
    await gs.enable(available[0] as never);
    expect(wallet.selectedAddress).toBe(A0);
  });

  it('get-starknet v5 with both forms present takes the wallet-standard registration (not its own wrapper)', async () => {
    const win = fakeWindow();
    g.window = win;
    const wallet = injectNodegateWallet({ window: win, provider: provider('p') });
    const { createStore, StarknetInjectedWallet } = await import('@starknet-io/get-starknet-core');
    const store = createStore({ eip1193Adapters: [] });
    const found = store.getWallets().filter((w) => w.name === wallet.name);
    expect(found).toHaveLength(1);
    // v5 saw window.starknet_nodegate too, but skips an injected wallet whose name is already registered.
    expect(found[0]).not.toBeInstanceOf(StarknetInjectedWallet);
    const api = found[0]!.features['starknet:walletApi'];
    expect(api.id).toBe('nodegate');
    expect(await api.request({ type: 'wallet_requestAccounts' } as never)).toEqual([A0]);
    const { accounts } = await found[0]!.features['standard:connect'].connect({ silent: true });
    expect(accounts.map((a) => a.address)).toEqual([A0]);
    expect(accounts[0]?.chains).toEqual(['starknet:0x534e5f5345504f4c4941']);
    expect(found[0]!.chains).toEqual(['starknet:0x534e5f4d41494e', 'starknet:0x534e5f5345504f4c4941']);
  });

  it('get-starknet v5 finds window.starknet_nodegate through its injected-wallet scan alone and wraps it', async () => {
    const win = fakeWindow();
    g.window = win;
    const sent: { method: string; params?: unknown }[] = [];
    const wallet = injectNodegateWallet({ window: win, provider: provider('p', [], sent), walletStandard: false });
    const { createStore, StarknetInjectedWallet } = await import('@starknet-io/get-starknet-core');
    const store = createStore({ eip1193Adapters: [] });
    const found = store.getWallets().filter((w) => w.name === wallet.name);
    expect(found).toHaveLength(1);
    // How it was found: v5's own wrapper of an injected window object, around our window.starknet_nodegate.
    expect(found[0]).toBeInstanceOf(StarknetInjectedWallet);
    expect((found[0] as unknown as { injected: unknown }).injected).toBe(wallet);
    const features = found[0]!.features;
    expect(features['starknet:walletApi'].id).toBe('nodegate');
    expect(features['starknet:walletApi'].walletVersion).toBe(wallet.version);

    // standard:connect through the wrapper: wallet_requestAccounts, then wallet_requestChainId for the chain.
    const { accounts } = await features['standard:connect'].connect({ silent: false });
    expect(accounts.map((a) => a.address)).toEqual([A0]);
    expect(accounts[0]?.chains).toEqual(['starknet:0x534e5f5345504f4c4941']);

    // A request through the wrapper reaches the snap as the exact wallet_invokeSnap payload.
    sent.length = 0;
    const calls = [{ contract_address: '0x111', entry_point: 'transfer', calldata: ['0x1', '0x5', '0x0'] }];
    expect(
      await features['starknet:walletApi'].request({ type: 'wallet_addInvokeTransaction', params: { calls } } as never),
    ).toEqual({
      transaction_hash: `0x${'feed'.padStart(64, '0')}`,
    });
    expect(sent).toEqual([
      {
        method: 'wallet_invokeSnap',
        params: {
          snapId: SNAP,
          request: {
            method: 'stk_executeTxn',
            params: {
              chainId: '0x534e5f5345504f4c4941',
              senderAddress: A0,
              calls: [{ contractAddress: '0x111', entrypoint: 'transfer', calldata: ['0x1', '0x5', '0x0'] }],
            },
          },
        },
      },
    ]);

    // The wrapper turns our networkChanged into a wallet-standard change with the new chain.
    const changes: unknown[] = [];
    const stop = features['standard:events'].on('change', (c) => changes.push(c));
    await features['starknet:walletApi'].request({
      type: 'wallet_switchStarknetChain',
      params: { chainId: '0x534e5f4d41494e' },
    } as never);
    expect(changes).toContainEqual({
      accounts: [{ address: A0, publicKey: new Uint8Array(), chains: ['starknet:0x534e5f4d41494e'], features: [] }],
    });
    stop();
  });
});

describe('SnapSigner', () => {
  it('sends each signing method to the snap and serves new Account({ provider, address, signer })', async () => {
    const seen: { method: string; params: Record<string, unknown> }[] = [];
    const p: Eip1193Provider = {
      async request({ params }) {
        const { request } = params as { request: { method: string; params: Record<string, unknown> } };
        seen.push(request);
        return request.method === 'stk_extractPublicKey' ? '0xabc' : ['0x1', '0x2'];
      },
    };
    const wallet = injectNodegateWallet({ window: fakeWindow(), provider: p });
    const signer = new SnapSigner({ snap: wallet.snap, address: A0 });
    const account = new Account({ provider: new RpcProvider({ nodeUrl: 'http://127.0.0.1:9' }), address: A0, signer });
    expect(await account.signer.getPubKey()).toBe('0xabc');
    const td = { types: { StarknetDomain: [] }, primaryType: 'StarknetDomain', domain: {}, message: {} };
    expect(await signer.signMessage(td as never, A0)).toEqual(['0x1', '0x2']);
    const details = { walletAddress: A0, nonce: 1n, chainId: '0x534e5f5345504f4c4941', version: '0x3' } as never;
    await signer.signTransaction([{ contractAddress: '0x1', entrypoint: 'f', calldata: [] }], details);
    await signer.signDeclareTransaction({ senderAddress: A0, classHash: '0x5' } as never);
    await signer.signDeployAccountTransaction({ contractAddress: A0, classHash: '0x5' } as never);
    expect(seen.map((s) => s.method)).toEqual([
      'stk_extractPublicKey',
      'stk_signMessage',
      'stk_signTransaction',
      'stk_signDeclareTransaction',
      'stk_signDeployAccountTransaction',
    ]);
    expect(seen[0]!.params).toEqual({ chainId: '0x534e5f5345504f4c4941', userAddress: A0 });
    expect(seen[2]!.params).toMatchObject({ signerAddress: A0, details: { nonce: '0x1' } });
  });
});
