import { createNodegateWallet, type NodegateWallet, type NodegateWalletOptions } from './createNodegateWallet.js';
import { createWalletStandardWallet } from './createWalletStandardWallet.js';
import type { WindowLike } from './types.js';

/** Options of {@link injectNodegateWallet}. */
export interface InjectNodegateWalletOptions extends NodegateWalletOptions {
  /**
   * Also register the wallet-standard form (default `true`). With `false` only `window.starknet_nodegate` is set,
   * so get-starknet v5 finds the wallet through its injected-wallet scan and wraps it itself.
   */
  walletStandard?: boolean;
}

/**
 * Puts the nodegate wallet at `window.starknet_nodegate` (found by get-starknet v4's scan of `window.starknet*`
 * and v5's injected-wallet discovery) and registers its wallet-standard form through
 * `wallet-standard:register-wallet` (and again on each `wallet-standard:app-ready`). get-starknet v5 prefers the
 * wallet-standard form when both are there.
 *
 * @param options - As {@link createNodegateWallet}; `window` is where it is injected (default `globalThis`);
 *   `walletStandard: false` skips the wallet-standard registration.
 * @returns The wallet object.
 * @example
 * ```ts
 * const wallet = injectNodegateWallet();
 * // get-starknet v4: (await getStarknet().getAvailableWallets()).find((w) => w.id === 'nodegate')
 * ```
 */
export function injectNodegateWallet(options: InjectNodegateWalletOptions = {}): NodegateWallet {
  const { walletStandard = true, ...walletOptions } = options;
  const win = walletOptions.window ?? (globalThis as unknown as WindowLike);
  const wallet = createNodegateWallet({ ...walletOptions, window: win });
  win.starknet_nodegate = wallet;
  if (!walletStandard) return wallet;
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
