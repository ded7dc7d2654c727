export { compressFelts } from './compressFelts.js';
export { FALLTHROUGH_TARGET, FIELD_PRIME, LONG_GENERIC_IDS, SHORT_STRING_BOUND } from './constants.js';
export { decodeGenericId } from './decodeGenericId.js';
export { decodeSierraProgram } from './decodeSierraProgram.js';
export { decompressFelts } from './decompressFelts.js';
export { type DeserializeOptions, deserializeSierraProgram } from './deserializeSierraProgram.js';
export { encodeGenericId } from './encodeGenericId.js';
export { encodeSierraProgram } from './encodeSierraProgram.js';
export { longGenericIdsFromDebugInfo, type SierraDebugInfo } from './longGenericIdsFromDebugInfo.js';
export { parseFelts } from './parseFelts.js';
export { SierraDecodeError } from './SierraDecodeError.js';
export { type SerializeOptions, serializeSierraProgram } from './serializeSierraProgram.js';
export { starknetKeccak } from './starknetKeccak.js';
export type {
  BranchInfo,
  BranchTarget,
  DeclaredTypeInfo,
  DecodedSierraProgram,
  FunctionSignature,
  GenericArg,
  LibfuncDeclaration,
  Param,
  SierraFunction,
  SierraProgram,
  Statement,
  TypeDeclaration,
  VersionId,
} from './types.js';
export { wordsPerFelt } from './wordsPerFelt.js';
export { buildTypeRegistry } from './vm/buildTypeRegistry.js';
export { constValue } from './vm/constValue.js';
export { BYTE_ARRAY_MAGIC, decodePanicData } from './vm/decodePanicData.js';
export { decodeShortString } from './vm/decodeShortString.js';
export { findHandlerFactory } from './vm/findHandlerFactory.js';
export {
  BUILTIN_GAS,
  ENTRY_POINT_INITIAL_GAS,
  libfuncBuiltinGas,
  STATEMENT_GAS,
  SYSCALL_GAS,
} from './vm/gasCosts.js';
export { isPanicResult } from './vm/isPanicResult.js';
export { type ParsedSierraText, parseSierraText } from './vm/parseSierraText.js';
export { checkProgramStructure } from './vm/checkProgramStructure.js';
export { type PreparedProgram, type PreparedStatement, prepareProgram } from './vm/prepareProgram.js';
export {
  type ContractClassInput,
  type ContractEntryPoint,
  cachedContractClass,
  type EntryPointOptions,
  type EntryPointResult,
  type EntryPointType,
  EntryPointNotFoundError,
  type LoadedContractClass,
  loadContractClass,
  runEntryPoint,
} from './vm/runEntryPoint.js';
export { runFunction } from './vm/runFunction.js';
export { SierraRunError } from './vm/SierraRunError.js';
export type {
  ArrayValue,
  CallGas,
  DictEntryValue,
  DictValue,
  EmittedEvent,
  EnumValue,
  ExecutionInfoOptions,
  HandlerFactory,
  LibfuncEnv,
  LibfuncHandler,
  PanicInfo,
  RunContext,
  RunOptions,
  RunResult,
  StarknetHost,
  TypeEntry,
  TypeInfo,
  TypeRegistry,
  Value,
} from './vm/types.js';
export { SyscallFailure } from './vm/types.js';
export { unsupportedLibfuncs } from './vm/unsupportedLibfuncs.js';
export { valueToCells } from './vm/valueToCells.js';
// Starknet hashes the interpreter computes, for hosts that need the same (the dev chain's commitments and storage).
export { hadesPermutation } from './vm/libfuncs/poseidon.js';
export { poseidonHash } from './vm/libfuncs/poseidonHash.js';
export { poseidonHashMany } from './vm/libfuncs/poseidonHashMany.js';
export { pedersenHash } from './vm/libfuncs/starkCurve.js';
