import { shortString } from 'starknet';
import {
  KNOWN_CHAINS,
  SN_SEPOLIA,
  SUPPORTED_SPECS,
  SUPPORTED_WALLET_API,
  WALLET_ICON,
  WALLET_ID,
  WALLET_NAME,
  WALLET_VERSION,
} from './constants.js';
import { createSnapClient, type SnapClient } from './createSnapClient.js';
import { findMetaMask } from './findMetaMask.js';
import type {
  Eip1193Provider,
  InvokeCall,
  WalletEventHandler,
  WalletEventName,
  WalletRequest,
  WindowLike,
} from './types.js';
import { WalletApiError, WalletApiErrorCode } from './WalletApiError.js';

/** Options of {@link createNodegateWallet}. */
export interface NodegateWalletOptions {
  /** MetaMask's provider; when absent it is found in `window` by EIP-6963 (fallback `window.ethereum`). */
  provider?: Eip1193Provider;
  /** The window to search for MetaMask (default `globalThis`). */
  window?: WindowLike;
  /** The snap id (default `local:http://localhost:8080`, what `npm run snap` serves; see `DEFAULT_SNAP_ID`). */
  snapId?: string;
  /** The snap version range to install. */
  snapVersion?: string;
  /**
   * The chain assumed until the wallet is connected (default SN_SEPOLIA). On connect the wallet takes the network
   * selected in the snap, which survives page reloads.
   */
  chainId?: string;
}

/** The get-starknet window object of the nodegate wallet (Starknet wallet API over MetaMask + the snap). */
export interface NodegateWallet {
  readonly id: string;
  readonly name: string;
  readonly icon: string;
  readonly version: string;
  /** The snap client (shared with {@link SnapSigner}). */
  readonly snap: SnapClient;
  /** The selected address after `wallet_requestAccounts` (get-starknet v3 compatibility). */
  readonly selectedAddress: string | undefined;
  /** The selected chain id (hex): the snap's selected network once connected. */
  readonly chainId: string;
  /** Whether accounts have been granted in this session. */
  readonly isConnected: boolean;
  /** Sends a wallet API request. */
  request(call: WalletRequest): Promise<unknown>;
  /** Subscribes to `accountsChanged` / `networkChanged`. */
  on(event: WalletEventName, handler: WalletEventHandler): void;
  /** Unsubscribes. */
  off(event: WalletEventName, handler: WalletEventHandler): void;
}

const HEX = /^0x[0-9a-fA-F]+$/;

/** A chain id given as hex or as its short string (`SN_SEPOLIA`), as hex; `undefined` when not a string. */
function chainIdHex(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  if (HEX.test(value)) return `0x${BigInt(value).toString(16)}`;
  try {
    return shortString.encodeShortString(value);
  } catch {
    return undefined;
  }
}

/** A hash as the wallet API's PADDED_FELT: `0x` and 64 hex digits. */
function padded(hash: string): string {
  return `0x${BigInt(hash).toString(16).padStart(64, '0')}`;
}

function asObject(params: unknown): Record<string, unknown> {
  return params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
}

function bad(message: string): WalletApiError {
  return new WalletApiError(WalletApiErrorCode.InvalidRequestPayload, message);
}

function isFelt(v: unknown): boolean {
  return (
    (typeof v === 'string' && (HEX.test(v) || /^[0-9]+$/.test(v))) || typeof v === 'number' || typeof v === 'bigint'
  );
}

/** The calls of `wallet_addInvokeTransaction`: `{calls}` (starknet.js), the spec's array, or `{invoke_transaction}`. */
function invokeCalls(params: unknown): InvokeCall[] {
  const raw = Array.isArray(params) ? params : (asObject(params).calls ?? asObject(params).invoke_transaction);
  if (!Array.isArray(raw) || raw.length === 0) throw bad('expected a non-empty list of calls');
  return raw.map((c, i) => {
    const call = asObject(c);
    if (typeof call.contract_address !== 'string' || !HEX.test(call.contract_address)) {
      throw bad(`call ${i}: contract_address must be a hex address`);
    }
    if (typeof call.entry_point !== 'string' || call.entry_point === '') {
      throw bad(`call ${i}: entry_point must be a function name`);
    }
    const calldata = call.calldata ?? [];
    if (!Array.isArray(calldata) || !calldata.every(isFelt)) throw bad(`call ${i}: calldata must be a list of felts`);
    return {
      contract_address: call.contract_address,
      entry_point: call.entry_point,
      calldata: calldata.map((v) => (typeof v === 'string' ? v : `0x${BigInt(v as number | bigint).toString(16)}`)),
    };
  });
}

/**
 * Creates the nodegate wallet object: the Starknet wallet API (get-starknet's `StarknetWindowObject`) backed by
 * MetaMask and the nodegate snap. Nothing is sent to MetaMask until the first request.
 *
 * @param options - Provider (or window to find MetaMask in), snap id/version and initial chain.
 * @returns The wallet object.
 */
export function createNodegateWallet(options: NodegateWalletOptions = {}): NodegateWallet {
  const win = options.window ?? (globalThis as unknown as WindowLike);
  const snap = createSnapClient({
    provider: options.provider ?? (() => findMetaMask(win)),
    ...(options.snapId ? { snapId: options.snapId } : {}),
    ...(options.snapVersion ? { snapVersion: options.snapVersion } : {}),
  });
  let chainId = chainIdHex(options.chainId) ?? SN_SEPOLIA;
  let accounts: string[] = [];
  let connected = false;
  let installed = false;
  let installing: Promise<void> | undefined;
  const handlers = { accountsChanged: new Set<WalletEventHandler>(), networkChanged: new Set<WalletEventHandler>() };

  const emit = (event: WalletEventName, ...args: unknown[]) => {
    for (const h of [...handlers[event]]) {
      try {
        (h as (...a: unknown[]) => void)(...args);
      } catch {
        // a dApp's handler must not break the wallet
      }
    }
  };
  /**
   * Moves to a (chain, accounts) state, then fires `networkChanged` when the chain changed and `accountsChanged` when
   * the accounts did: every handler sees the whole new state (never the new chain with the old account).
   */
  const apply = (nextChain: string, nextAccounts: string[]) => {
    const chainChanged = nextChain !== chainId;
    const accountsChanged = nextAccounts.length !== accounts.length || nextAccounts.some((a, i) => a !== accounts[i]);
    chainId = nextChain;
    accounts = nextAccounts;
    if (chainChanged) emit('networkChanged', chainId, [...accounts]);
    if (accountsChanged) emit('accountsChanged', [...accounts]);
  };
  const storedAccounts = async (chain: string): Promise<string[]> => {
    const stored = await snap.invoke<{ address: string; addressIndex?: number }[]>('stk_getStoredUserAccounts', {
      chainId: chain,
    });
    return [...(stored ?? [])].sort((a, b) => (a.addressIndex ?? 0) - (b.addressIndex ?? 0)).map((a) => a.address);
  };
  /** The stored accounts on `chain`, or (none stored) the wallet's first account there, found by stk_recoverAccounts. */
  const accountsOn = async (chain: string): Promise<string[]> => {
    const list = await storedAccounts(chain);
    if (list.length > 0) return list;
    const recovered = await snap.invoke<{ address: string }[]>('stk_recoverAccounts', {
      chainId: chain,
      startScanIndex: 0,
      maxScanned: 1,
      maxMissed: 1,
    });
    return (recovered ?? []).map((a) => a.address);
  };
  /** The network selected in the snap (stk_getCurrentNetwork), which outlives the page. */
  const snapNetwork = async (): Promise<string> => {
    const current = await snap.invoke<{ chainId?: unknown }>('stk_getCurrentNetwork', {});
    const hex = chainIdHex(current?.chainId);
    if (!hex) {
      throw new WalletApiError(WalletApiErrorCode.UnknownError, 'the snap did not say which network is selected');
    }
    return hex;
  };
  // Requests that move the wallet's state (connect, switch, resync) run one at a time, so a slow one never
  // overwrites what a later one learned.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  // The snap cannot push events to the page; when the page gets the focus back (the user may have switched the
  // network in another tab, or in the wallet), the wallet re-reads the snap's network and accounts. No polling.
  let resyncing = false;
  const resync = async () => {
    if (!connected || resyncing) return;
    resyncing = true;
    try {
      await serial(async () => {
        if (!connected) return;
        const chain = await snapNetwork();
        const list = chain === chainId ? await storedAccounts(chain) : await accountsOn(chain);
        if (list.length > 0) apply(chain, list);
      });
    } catch {
      // A failed background refresh leaves the state as it was; the dApp's next request reports the problem.
    } finally {
      resyncing = false;
    }
  };
  if (typeof win.addEventListener === 'function') win.addEventListener('focus', () => void resync());
  // Concurrent connects share one wallet_requestSnaps (one MetaMask popup).
  const ensureInstalled = async () => {
    if (installed) return;
    installing ??= snap.install().then(
      () => {
        installed = true;
      },
      (error: unknown) => {
        installing = undefined;
        throw error;
      },
    );
    await installing;
  };
  /** The connected account; before connecting, a `code` error (the spec's own code where it names one). */
  const sender = (code: number = WalletApiErrorCode.UnknownError): string => {
    const address = accounts[0];
    if (!connected || !address) throw new WalletApiError(code, 'not connected: call wallet_requestAccounts first');
    return address;
  };
  const checkApiVersion = (params: unknown) => {
    const v = asObject(params).api_version;
    if (v !== undefined && (typeof v !== 'string' || !SUPPORTED_WALLET_API.includes(v))) {
      throw new WalletApiError(
        WalletApiErrorCode.ApiVersionNotSupported,
        `supported wallet API versions: ${SUPPORTED_WALLET_API.join(', ')}`,
      );
    }
  };

  const methods: Record<string, (params: unknown) => Promise<unknown>> = {
    async wallet_supportedWalletApi() {
      return [...SUPPORTED_WALLET_API];
    },
    async wallet_supportedSpecs() {
      return [...SUPPORTED_SPECS];
    },
    async wallet_getPermissions() {
      if (connected) return ['accounts'];
      return (await snap.isInstalled()) ? ['accounts'] : [];
    },
    async wallet_requestAccounts(params) {
      const silent = asObject(params).silent_mode === true;
      return serial(async () => {
        if (silent) {
          // Never a popup: no wallet_requestSnaps, no dialog; the stored accounts of an installed snap only.
          if (!installed && !(await snap.isInstalled())) return [];
          installed = true;
        } else {
          await ensureInstalled();
        }
        // The snap's selected network, not this page's guess: after a reload the two agree again.
        const chain = await snapNetwork();
        const list = silent ? await storedAccounts(chain) : await accountsOn(chain);
        if (list.length > 0) connected = true;
        else if (!silent) connected = false;
        apply(chain, list);
        return [...list];
      });
    },
    async wallet_requestChainId() {
      return chainId;
    },
    async wallet_switchStarknetChain(params) {
      const p = asObject(params);
      const target = chainIdHex(p.chainId);
      if (!target) throw bad('chainId must be a chain id (hex or short string)');
      if (!KNOWN_CHAINS.includes(target)) {
        throw new WalletApiError(WalletApiErrorCode.UnlistedNetwork, `chain ${target} is not served by this wallet`);
      }
      if (target === chainId) return true;
      if (p.silent_mode === true) {
        throw new WalletApiError(
          WalletApiErrorCode.ChainIdNotSupported,
          'switching chains needs the user (silent_mode)',
        );
      }
      return serial(async () => {
        await ensureInstalled();
        await snap.invoke('stk_switchNetwork', { chainId: target });
        apply(target, connected ? await accountsOn(target) : []);
        return true;
      });
    },
    async wallet_addStarknetChain(params) {
      const target = chainIdHex(asObject(params).chain_id);
      if (!target) throw bad('chain_id must be a chain id');
      if (KNOWN_CHAINS.includes(target)) return true;
      throw new WalletApiError(
        WalletApiErrorCode.UnknownError,
        `this wallet serves only ${KNOWN_CHAINS.join(' and ')} through nodegate; chains cannot be added`,
      );
    },
    async wallet_watchAsset(params) {
      const p = asObject(params);
      const o = asObject(p.options);
      if (typeof p.type !== 'string') throw bad('type must be "ERC20"');
      // Another kind of asset (ERC721, …) is the spec's NOT_ERC20: this wallet watches ERC20 tokens only.
      if (p.type !== 'ERC20') {
        throw new WalletApiError(WalletApiErrorCode.NotErc20, `only ERC20 tokens can be watched, not ${p.type}`);
      }
      if (typeof o.address !== 'string' || !HEX.test(o.address)) throw bad('options.address must be a hex address');
      await snap.invoke('stk_watchAsset', {
        chainId,
        tokenAddress: o.address,
        ...(typeof o.name === 'string' ? { tokenName: o.name } : {}),
        ...(typeof o.symbol === 'string' ? { tokenSymbol: o.symbol } : {}),
        ...(typeof o.decimals === 'number' ? { tokenDecimals: o.decimals } : {}),
      });
      return true;
    },
    async wallet_addInvokeTransaction(params) {
      const calls = invokeCalls(params);
      const result = await snap.invoke<{ transaction_hash: string }>('stk_executeTxn', {
        chainId,
        senderAddress: sender(),
        calls: calls.map((c) => ({
          contractAddress: c.contract_address,
          entrypoint: c.entry_point,
          calldata: c.calldata,
        })),
      });
      return { transaction_hash: padded(result.transaction_hash) };
    },
    async wallet_addDeclareTransaction(params) {
      const p = asObject(params);
      if (typeof p.compiled_class_hash !== 'string' || !HEX.test(p.compiled_class_hash)) {
        throw bad('compiled_class_hash must be a felt');
      }
      if (!p.contract_class || typeof p.contract_class !== 'object') throw bad('contract_class must be a Sierra class');
      const result = await snap.invoke<{ transaction_hash: string; class_hash: string }>('stk_declareContract', {
        chainId,
        senderAddress: sender(),
        contract: p.contract_class,
        compiledClassHash: p.compiled_class_hash,
        ...(typeof p.class_hash === 'string' ? { classHash: p.class_hash } : {}),
      });
      return { transaction_hash: padded(result.transaction_hash), class_hash: padded(result.class_hash) };
    },
    async wallet_signTypedData(params) {
      const p = asObject(params);
      if (!p.types || !p.primaryType || !p.domain || !p.message) {
        throw bad('typed_data needs types, primaryType, domain and message');
      }
      const { api_version: _ignored, ...typedData } = p;
      return snap.invoke<string[]>('stk_signMessage', {
        chainId,
        typedDataMessage: JSON.stringify(typedData),
        signerAddress: sender(),
      });
    },
    async wallet_deploymentData() {
      // The spec: a dApp that is not approved gets DEPLOYMENT_DATA_NOT_AVAILABLE.
      const address = sender(WalletApiErrorCode.DeploymentDataNotAvailable);
      return snap.invoke<Record<string, unknown>>('stk_getDeploymentData', { chainId, address });
    },
  };

  const wallet: NodegateWallet = {
    id: WALLET_ID,
    name: WALLET_NAME,
    icon: WALLET_ICON,
    version: WALLET_VERSION,
    snap,
    get selectedAddress() {
      return accounts[0];
    },
    get chainId() {
      return chainId;
    },
    get isConnected() {
      return connected;
    },
    async request(call: WalletRequest) {
      const method = call && typeof call === 'object' ? methods[call.type] : undefined;
      if (!method) {
        throw new WalletApiError(
          WalletApiErrorCode.UnknownError,
          `unsupported wallet API method: ${String(call?.type)}`,
        );
      }
      checkApiVersion(call.params);
      return method(call.params);
    },
    on(event: WalletEventName, handler: WalletEventHandler) {
      if (!(event in handlers)) throw new Error(`unknown event ${String(event)}`);
      handlers[event].add(handler);
    },
    off(event: WalletEventName, handler: WalletEventHandler) {
      handlers[event]?.delete(handler);
    },
  };
  return wallet;
}
