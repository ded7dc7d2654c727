/**
 * @nodegate/starknet-devchain: a Starknet dev chain in TypeScript speaking JSON-RPC 0.10.
 *
 * @example
 * import { startDevchain } from '@nodegate/starknet-devchain';
 * const dc = await startDevchain({ host: '127.0.0.1', port: 0 });
 * console.log(dc.rpcUrl);
 * await dc.close();
 */
export type { BlockId, ChainConfig, EmittedEvent, StoredReceipt } from './chain/Chain.js';
export { STARKNET_VERSION } from './chain/Chain.js';
export { predeployedAccounts, UDC_ADDRESS } from './chain/genesis.js';
export { ETH_ADDRESS, STRK_ADDRESS } from './chain/processTransaction.js';
export { nativeClasses } from './contracts/registry.js';
export type { SierraContractClass } from './contracts/sierraClass.js';
export { DevchainNode } from './devchain.js';
export { DevchainError, ErrorCode, type ErrorCodeValue } from './errors.js';
export { type MethodName, methodTable } from './rpc/methodTable.js';
export { SPEC_VERSION } from './rpc/methods/starknet_specVersion.js';
export { type DevchainOptions, parseChainId, type RunningDevchain, startDevchain } from './startDevchain.js';
export { seedWelcome, type WelcomeState } from './welcome/seedWelcome.js';
export { WELCOME_CLASS_TAG, WELCOME_TIMESTAMPS, WELCOME_TRANSFER_AMOUNT } from './welcome/welcomeConstants.js';
