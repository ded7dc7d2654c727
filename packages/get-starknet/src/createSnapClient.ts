import { DEFAULT_SNAP_ID } from './constants.js';
import { toWalletApiError } from './toWalletApiError.js';
import type { Eip1193Provider } from './types.js';
import { WalletApiError, WalletApiErrorCode } from './WalletApiError.js';

/** Options of {@link createSnapClient}. */
export interface SnapClientOptions {
  /** MetaMask's provider, or a function that finds it (called once, on first use). */
  provider: Eip1193Provider | (() => Promise<Eip1193Provider | undefined>);
  /** The snap id (default `local:http://localhost:8080`, what `npm run snap` serves; see `DEFAULT_SNAP_ID`). */
  snapId?: string;
  /** The snap version range to install (MetaMask's default when absent). */
  snapVersion?: string;
}

/** Talks to the nodegate snap through MetaMask. */
export interface SnapClient {
  readonly snapId: string;
  /** Whether the snap is installed and enabled (`wallet_getSnaps`; never opens a popup). */
  isInstalled(): Promise<boolean>;
  /** Installs / connects the snap (`wallet_requestSnaps`; MetaMask may show a popup). */
  install(): Promise<void>;
  /** Calls a snap method (`wallet_invokeSnap`); errors are mapped to wallet API errors. */
  invoke<T>(method: string, params: Record<string, unknown>): Promise<T>;
}

/** Makes a value JSON-safe for MetaMask: bigints become hex strings, Uint8Arrays hex. */
function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return `0x${value.toString(16)}`;
  if (value instanceof Uint8Array) return `0x${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = jsonSafe(v);
    return out;
  }
  return value;
}

/**
 * Creates the client the wallet object and the signer use to reach the snap.
 *
 * @param options - The provider (or how to find it), snap id and version.
 * @returns The client.
 */
export function createSnapClient(options: SnapClientOptions): SnapClient {
  const snapId = options.snapId ?? DEFAULT_SNAP_ID;
  let providerPromise: Promise<Eip1193Provider> | undefined;
  const provider = (): Promise<Eip1193Provider> => {
    if (!providerPromise) {
      const p = options.provider;
      providerPromise = (typeof p === 'function' ? p() : Promise.resolve(p)).then((found) => {
        if (!found) {
          providerPromise = undefined;
          throw new WalletApiError(
            WalletApiErrorCode.UnknownError,
            'MetaMask was not found (no EIP-6963 announcement, no window.ethereum)',
          );
        }
        return found;
      });
    }
    return providerPromise;
  };
  const call = async <T>(method: string, params: unknown): Promise<T> => {
    const p = await provider();
    try {
      return (await p.request({ method, params })) as T;
    } catch (error) {
      throw toWalletApiError(error);
    }
  };
  return {
    snapId,
    async isInstalled() {
      const snaps = await call<Record<string, { enabled?: boolean; blocked?: boolean } | undefined>>(
        'wallet_getSnaps',
        undefined,
      );
      const snap = snaps?.[snapId];
      return Boolean(snap && snap.enabled !== false && snap.blocked !== true);
    },
    async install() {
      await call('wallet_requestSnaps', { [snapId]: options.snapVersion ? { version: options.snapVersion } : {} });
    },
    invoke<T>(method: string, params: Record<string, unknown>) {
      return call<T>('wallet_invokeSnap', { snapId, request: { method, params: jsonSafe(params) } });
    },
  };
}
