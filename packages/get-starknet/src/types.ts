/** Types shared by the connector's modules. */

/** An EIP-1193 provider (MetaMask's `window.ethereum`, or one announced through EIP-6963). */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/** What EIP-6963 announces for each wallet provider. */
export interface Eip6963ProviderDetail {
  info: { uuid: string; name: string; icon: string; rdns: string };
  provider: Eip1193Provider;
}

/** The parts of `window` the connector uses (an EventTarget with `ethereum` and `starknet_*` properties). */
export interface WindowLike {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
  ethereum?: unknown;
  [key: string]: unknown;
}

/** A Starknet wallet API request, as get-starknet and starknet.js send it. */
export interface WalletRequest {
  type: string;
  params?: unknown;
}

/** Events of the get-starknet window object. */
export type WalletEventName = 'accountsChanged' | 'networkChanged';
/** `accountsChanged` handler: the new accounts (the first is the selected one). */
export type AccountsChangedHandler = (accounts?: string[]) => void;
/** `networkChanged` handler: the new chain id and the accounts on it. */
export type NetworkChangedHandler = (chainId?: string, accounts?: string[]) => void;
/** Either event handler. */
export type WalletEventHandler = AccountsChangedHandler | NetworkChangedHandler;

/** A call of `wallet_addInvokeTransaction`, as the wallet API names its fields. */
export interface InvokeCall {
  contract_address: string;
  entry_point: string;
  calldata?: string[];
}
