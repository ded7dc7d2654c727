/** The wallet API's error codes (Starknet wallet API, `components/errors`). */
export const WalletApiErrorCode = {
  NotErc20: 111,
  UnlistedNetwork: 112,
  UserRefused: 113,
  InvalidRequestPayload: 114,
  AccountAlreadyDeployed: 115,
  DeploymentDataNotAvailable: 116,
  ChainIdNotSupported: 117,
  ApiVersionNotSupported: 162,
  UnknownError: 163,
} as const;

const MESSAGES: Record<number, string> = {
  111: 'An error occurred (NOT_ERC20)',
  112: 'An error occurred (UNLISTED_NETWORK)',
  113: 'An error occurred (USER_REFUSED_OP)',
  114: 'An error occurred (INVALID_REQUEST_PAYLOAD)',
  115: 'An error occurred (ACCOUNT_ALREADY_DEPLOYED)',
  116: 'An error occurred (DEPLOYMENT_DATA_NOT_AVAILABLE)',
  117: 'An error occurred (CHAIN_ID_NOT_SUPPORTED)',
  162: 'An error occurred (API_VERSION_NOT_SUPPORTED)',
  163: 'An error occurred (UNKNOWN_ERROR)',
};

/**
 * An error of the Starknet wallet API: `code` and `message` as the spec gives them, `data` with the detail
 * (for 163, the snap's or MetaMask's own message).
 */
export class WalletApiError extends Error {
  readonly code: number;
  readonly data?: unknown;

  constructor(code: number, data?: unknown) {
    super(MESSAGES[code] ?? `An error occurred (${code})`);
    this.name = 'WalletApiError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }

  /** The JSON-RPC error object (`{code, message, data?}`). */
  toJSON(): { code: number; message: string; data?: unknown } {
    return { code: this.code, message: this.message, ...(this.data !== undefined ? { data: this.data } : {}) };
  }
}
