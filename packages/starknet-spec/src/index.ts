export { FELT_MAX, FIELD_PRIME, isFelt, isFeltHex, toFelt } from './felt.js';
export {
  STARKNET_SPEC_VERSION,
  type StarknetApi,
  type StarknetHttpMethodName,
  type StarknetSpecMethod,
  type StarknetSpecMethodName,
  type StarknetWsMethodName,
  starknetHttpMethodNames,
  starknetSpecMethods,
  starknetSpecNotifications,
} from './starknetSpecMethods.js';
export {
  type StarknetSpecParamFields,
  type StarknetTxnType,
  starknetSpecParamFields,
} from './starknetSpecParamFields.js';
