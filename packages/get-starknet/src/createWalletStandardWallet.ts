import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { KNOWN_CHAINS } from './constants.js';
import type { NodegateWallet } from './createNodegateWallet.js';
import type { WalletRequest } from './types.js';

/** The wallet-standard view of the nodegate wallet, with the Starknet features get-starknet v5 requires. */
export type NodegateStandardWallet = Wallet & {
  readonly features: {
    'starknet:walletApi': {
      version: '1.0.0';
      request: (call: WalletRequest) => Promise<unknown>;
      walletVersion: string;
      id: string;
    };
    'standard:connect': {
      version: '1.0.0';
      connect: (input?: { silent?: boolean }) => Promise<{ accounts: readonly WalletAccount[] }>;
    };
    'standard:disconnect': { version: '1.0.0'; disconnect: () => Promise<void> };
    'standard:events': {
      version: '1.0.0';
      on: (
        event: 'change',
        listener: (props: { accounts?: readonly WalletAccount[]; chains?: readonly `${string}:${string}`[] }) => void,
      ) => () => void;
    };
  };
};

/** wallet-standard chain identifier: `starknet:<hex chain id>` (get-starknet v5's `WELL_KNOWN_STARKNET_CHAINS`). */
const chainName = (hex: string): `starknet:${string}` => `starknet:${hex}`;

/**
 * Wraps the wallet object as a wallet-standard wallet (`starknet:walletApi`, `standard:connect`,
 * `standard:disconnect`, `standard:events`), the shape get-starknet v5 and starknet.js `WalletAccountV5` use.
 *
 * @param wallet - The nodegate wallet object.
 * @returns The wallet-standard wallet.
 */
export function createWalletStandardWallet(wallet: NodegateWallet): NodegateStandardWallet {
  const account = (address: string): WalletAccount => ({
    address,
    publicKey: new Uint8Array(),
    chains: [chainName(wallet.chainId)],
    features: ['starknet:walletApi'],
  });
  const accounts = (): readonly WalletAccount[] => (wallet.selectedAddress ? [account(wallet.selectedAddress)] : []);
  return {
    version: '1.0.0',
    name: wallet.name,
    icon: wallet.icon as `data:image/svg+xml;base64,${string}`,
    chains: KNOWN_CHAINS.map(chainName),
    get accounts() {
      return accounts();
    },
    features: {
      'starknet:walletApi': {
        version: '1.0.0',
        request: (call) => wallet.request(call),
        walletVersion: wallet.version,
        id: wallet.id,
      },
      'standard:connect': {
        version: '1.0.0',
        async connect(input) {
          await wallet.request({ type: 'wallet_requestAccounts', params: { silent_mode: input?.silent === true } });
          return { accounts: accounts() };
        },
      },
      'standard:disconnect': { version: '1.0.0', async disconnect() {} },
      'standard:events': {
        version: '1.0.0',
        on(_event, listener) {
          // A change of network shows as the account's chain (`starknet:<chain id>`), which is what get-starknet
          // v5 and starknet.js WalletAccountV5 read; the wallet's `chains` (every chain it serves) stay the same.
          const onAccounts = () => listener({ accounts: accounts() });
          const onNetwork = () => listener({ accounts: accounts() });
          wallet.on('accountsChanged', onAccounts);
          wallet.on('networkChanged', onNetwork);
          return () => {
            wallet.off('accountsChanged', onAccounts);
            wallet.off('networkChanged', onNetwork);
          };
        },
      },
    },
  };
}
