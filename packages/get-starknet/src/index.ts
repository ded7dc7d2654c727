/** @nodegate/get-starknet: a Starknet wallet object for get-starknet / starknet.js backed by MetaMask + the nodegate snap. */
export * from './constants.js';
export { createNodegateWallet, type NodegateWallet, type NodegateWalletOptions } from './createNodegateWallet.js';
export { createSnapClient, type SnapClient, type SnapClientOptions } from './createSnapClient.js';
export { createWalletStandardWallet, type NodegateStandardWallet } from './createWalletStandardWallet.js';
export { type FindMetaMaskOptions, findMetaMask } from './findMetaMask.js';
export { type InjectNodegateWalletOptions, injectNodegateWallet } from './injectNodegateWallet.js';
export { SnapSigner, type SnapSignerOptions } from './SnapSigner.js';
export { toWalletApiError } from './toWalletApiError.js';
export type * from './types.js';
export { WalletApiError, WalletApiErrorCode } from './WalletApiError.js';
