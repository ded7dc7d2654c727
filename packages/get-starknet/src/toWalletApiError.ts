import { WalletApiError, WalletApiErrorCode } from './WalletApiError.js';

/** The snap's own code for "account already deployed" (see the snap's `src/lib/errors.ts`). */
const SNAP_ACCOUNT_ALREADY_DEPLOYED = -32003;
/** The snap's own code for "the address is not an ERC20 token" (`stk_watchAsset`). */
const SNAP_NOT_ERC20 = -32008;

function detail(error: unknown): { code?: number; message: string; data?: unknown } {
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    return {
      ...(typeof e.code === 'number' ? { code: e.code } : {}),
      message: typeof e.message === 'string' ? e.message : String(error),
      ...(e.data !== undefined ? { data: e.data } : {}),
    };
  }
  return { message: String(error) };
}

/**
 * Maps an error from MetaMask or the snap to the wallet API's codes: user refusal (4001) → 113, bad payload
 * (-32602) → 114 (112 when the parameter is `chainId`), already deployed → 115, not an ERC20 → 111; anything else →
 * 163. The original message is kept in `data`. A {@link WalletApiError} is returned as is.
 *
 * @example
 * ```ts
 * toWalletApiError({ code: 4001, message: 'User rejected the request.' }).code; // 113
 * ```
 *
 * @param error - What MetaMask's `request` rejected with.
 * @returns The wallet API error.
 */
export function toWalletApiError(error: unknown): WalletApiError {
  if (error instanceof WalletApiError) return error;
  const { code, message, data } = detail(error);
  if (code === -32602 && (data as { param?: unknown } | undefined)?.param === 'chainId') {
    return new WalletApiError(WalletApiErrorCode.UnlistedNetwork, message);
  }
  switch (code) {
    case 4001:
      return new WalletApiError(WalletApiErrorCode.UserRefused, message);
    case -32602:
      return new WalletApiError(WalletApiErrorCode.InvalidRequestPayload, message);
    case SNAP_ACCOUNT_ALREADY_DEPLOYED:
      return new WalletApiError(WalletApiErrorCode.AccountAlreadyDeployed, message);
    case SNAP_NOT_ERC20:
      return new WalletApiError(WalletApiErrorCode.NotErc20, message);
    default:
      return new WalletApiError(WalletApiErrorCode.UnknownError, message);
  }
}
