/**
 * Test helpers for packages that test against the dev chain: a raw JSON-RPC client, signed transactions and the
 * Cairo classes to declare (the Cairo test data, nodegate's own test contracts, synthetic classes).
 */
export { readCairoTestData } from './readCairoTestData.js';
export { readTestContract } from './readTestContract.js';
export { type RawResponse, rawRpc, rpcResult } from './rpc.js';
export {
  bounds3,
  declareV3,
  deployAccountV3,
  invokeV3,
  SEPOLIA,
  sign,
  transferCalldata,
} from './signedTx.js';
export { sierraContractClass } from './sierraContractClass.js';
export { syntheticAnswer, syntheticClass } from './syntheticClass.js';
export { type Notification, type WsClient, wsClient } from './wsClient.js';
