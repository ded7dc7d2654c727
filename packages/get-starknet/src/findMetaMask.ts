import { METAMASK_RDNS } from './constants.js';
import type { Eip1193Provider, Eip6963ProviderDetail, WindowLike } from './types.js';

/** Options of {@link findMetaMask}. */
export interface FindMetaMaskOptions {
  /** Accepted EIP-6963 rdns, most preferred first (default `io.metamask`, `io.metamask.flask`). */
  rdns?: readonly string[];
  /** How long to wait for announcements after `eip6963:requestProvider` (ms, default 200). */
  timeoutMs?: number;
}

/**
 * Finds MetaMask: asks EIP-6963 providers to announce themselves (`eip6963:requestProvider`) and takes the
 * announced provider with the most preferred rdns; falls back to `window.ethereum`.
 *
 * @param win - The window to search.
 * @param options - rdns preference and wait.
 * @returns MetaMask's EIP-1193 provider, or `undefined` when there is none.
 */
export async function findMetaMask(
  win: WindowLike,
  options: FindMetaMaskOptions = {},
): Promise<Eip1193Provider | undefined> {
  const rdns = options.rdns ?? METAMASK_RDNS;
  const injected = win.ethereum as Eip1193Provider | undefined;
  const fallback = injected && typeof injected.request === 'function' ? injected : undefined;
  if (typeof win.addEventListener !== 'function' || typeof win.dispatchEvent !== 'function') return fallback;
  const found = new Map<string, Eip1193Provider>();
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<Eip6963ProviderDetail>).detail;
    const name = detail?.info?.rdns;
    if (name && rdns.includes(name) && detail.provider && typeof detail.provider.request === 'function') {
      if (!found.has(name)) found.set(name, detail.provider);
    }
  };
  win.addEventListener('eip6963:announceProvider', onAnnounce);
  try {
    win.dispatchEvent(new Event('eip6963:requestProvider'));
    const deadline = Date.now() + (options.timeoutMs ?? 200);
    // Wallets usually answer synchronously; give slow ones until the deadline, stopping at the first match.
    while (found.size === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    win.removeEventListener('eip6963:announceProvider', onAnnounce);
  }
  for (const name of rdns) {
    const provider = found.get(name);
    if (provider) return provider;
  }
  return fallback;
}
