/**
 * The one error base class of the dev chain. Every failure that reaches a client is a
 * {@link DevchainError} carrying a stable Starknet JSON-RPC error code; `toJsonRpcError` in
 * `rpc/toJsonRpcError.ts` is the only place that turns it into a wire error.
 */

/** Stable error codes: Starknet spec 0.10 codes plus JSON-RPC 2.0 protocol codes. */
export const ErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** A dev-chain tool failed (the postman's L1, the fork origin): devnet-rs's code for errors the spec has none for. */
  DEVNET_ERROR: -1,
  FAILED_TO_RECEIVE_TXN: 1,
  CONTRACT_NOT_FOUND: 20,
  ENTRYPOINT_NOT_FOUND: 21,
  BLOCK_NOT_FOUND: 24,
  INVALID_TXN_INDEX: 27,
  CLASS_HASH_NOT_FOUND: 28,
  TXN_HASH_NOT_FOUND: 29,
  PAGE_SIZE_TOO_BIG: 31,
  NO_BLOCKS: 32,
  INVALID_CONTINUATION_TOKEN: 33,
  TOO_MANY_KEYS_IN_FILTER: 34,
  CONTRACT_ERROR: 40,
  TRANSACTION_EXECUTION_ERROR: 41,
  STORAGE_PROOF_NOT_SUPPORTED: 42,
  CLASS_ALREADY_DECLARED: 51,
  INVALID_TRANSACTION_NONCE: 52,
  INSUFFICIENT_RESOURCES_FOR_VALIDATE: 53,
  INSUFFICIENT_ACCOUNT_BALANCE: 54,
  VALIDATION_FAILURE: 55,
  COMPILATION_FAILED: 56,
  CONTRACT_CLASS_SIZE_IS_TOO_LARGE: 57,
  NON_ACCOUNT: 58,
  DUPLICATE_TX: 59,
  COMPILED_CLASS_HASH_MISMATCH: 60,
  UNSUPPORTED_TX_VERSION: 61,
  UNSUPPORTED_CONTRACT_CLASS_VERSION: 62,
  UNEXPECTED_ERROR: 63,
  INVALID_SUBSCRIPTION_ID: 66,
  TOO_MANY_ADDRESSES_IN_FILTER: 67,
  TOO_MANY_BLOCKS_BACK: 68,
  COMPILATION_ERROR: 100,
} as const;

/** A code from {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Spec messages for each code (the wire `message`). */
export const errorMessages: Record<ErrorCodeValue, string> = {
  [-32700]: 'Parse error',
  [-32600]: 'Invalid request',
  [-32601]: 'Method not found',
  [-32602]: 'Invalid params',
  [-32603]: 'Internal error',
  [-1]: 'Dev chain error',
  1: 'Failed to write transaction',
  20: 'Contract not found',
  21: 'Requested entry point does not exist in the contract',
  24: 'Block not found',
  27: 'Invalid transaction index in a block',
  28: 'Class hash not found',
  29: 'Transaction hash not found',
  31: 'Requested page size is too big',
  32: 'There are no blocks',
  33: 'The supplied continuation token is invalid or unknown',
  34: 'Too many keys provided in a filter',
  40: 'Contract error',
  41: 'Transaction execution error',
  42: "the node doesn't support storage proofs for blocks that are too far in the past",
  51: 'Class already declared',
  52: 'Invalid transaction nonce',
  53: "The transaction's resources don't cover validation or the minimal transaction fee",
  54: "Account balance is smaller than the transaction's maximal fee (calculated as the sum of each resource's limit x max price)",
  55: 'Account validation failed',
  56: 'Compilation failed',
  57: 'Contract class size is too large',
  58: 'Sender address is not an account contract',
  59: 'A transaction with the same hash already exists in the mempool',
  60: 'the compiled class hash did not match the one supplied in the transaction',
  61: 'the transaction version is not supported',
  62: 'the contract class version is not supported',
  63: 'An unexpected error occurred',
  66: 'Invalid subscription id',
  67: 'Too many addresses in filter sender_address filter',
  68: 'Cannot go back more than 1024 blocks',
  100: 'Failed to compile the contract',
};

/**
 * A failure with a stable JSON-RPC code.
 *
 * @example
 * throw new DevchainError(ErrorCode.BLOCK_NOT_FOUND);
 * throw new DevchainError(ErrorCode.INVALID_TRANSACTION_NONCE, { data: 'expected 0x1, got 0x0' });
 */
export class DevchainError extends Error {
  readonly code: ErrorCodeValue;
  readonly data: unknown;

  constructor(code: ErrorCodeValue, options: { data?: unknown; message?: string; cause?: unknown } = {}) {
    super(options.message ?? errorMessages[code], options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DevchainError';
    this.code = code;
    this.data = options.data;
  }
}

/** Shorthand for an invalid-params error with a human-readable reason in `data`. */
export function invalidParams(reason: string): DevchainError {
  return new DevchainError(ErrorCode.INVALID_PARAMS, { data: reason });
}

/**
 * A devnet operation the chain's current state does not allow (aborting genesis, accepting a block twice…): -32600
 * with the reason as the message, as starknet-devnet answers its UnsupportedAction.
 */
export function unsupportedAction(reason: string): DevchainError {
  return new DevchainError(ErrorCode.INVALID_REQUEST, { message: reason });
}
