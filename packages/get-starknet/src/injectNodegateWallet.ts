import { createNodegateWallet, type NodegateWallet, type NodegateWalletOptions } from './createNodegateWallet.js';
import { createWalletStandardWallet } from './createWalletStandardWallet.js';
import type { WindowLike } from './types.js';

/**
 * Puts the nodegate wallet at `window.starknet_nodegate` (found by get-starknet v4's scan of `window.starknet*`
 * and v5's injected-wallet discovery) and registers its wallet-standard form through
 * `wallet-standard:register-wallet` (and again on each `wallet-standard:app-ready`).
 *
 * @param options - As {@link createNodegateWallet}; `window` is where it is injected (default `globalThis`).
 * @returns The wallet object.
 */
export function injectNodegateWallet(options: NodegateWalletOptions = {}): NodegateWallet {
  const win = options.window ?? (globalThis as unknown as WindowLike);
  const wallet = createNodegateWallet({ ...options, window: win });
  win.starknet_nodegate = wallet;
  const standard = createWalletStandardWallet(wallet);
  const callback = ({ register }: { register: (w: unknown) => unknown }) => register(standard);
  if (typeof win.addEventListener !== 'function' || typeof win.dispatchEvent !== 'function') return wallet;
  try {
    win.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }));
  } catch {
    // no CustomEvent (very old runtime): the app-ready path below still works
  }
  win.addEventListener('wallet-standard:app-ready', (event: Event) => {
    const api = (event as CustomEvent<{ register: (w: unknown) => unknown }>).detail;
    if (api && typeof api.register === 'function') callback(api);
  });
  return wallet;
}
