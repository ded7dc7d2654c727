import { InvalidParamsError, SnapError, UserRejectedRequestError } from '@metamask/snaps-sdk';

/**
 * A bad request parameter: JSON-RPC code -32602, with the parameter named in the message and data.
 *
 * @param param - The parameter's name as the caller spelled it.
 * @param problem - What is wrong with it, in words a developer can act on.
 * @returns The error to throw.
 * @example
 * ```ts
 * throw invalidParam('addressIndex', 'must be a non-negative integer');
 * ```
 */
export function invalidParam(param: string, problem: string): Error {
  return new InvalidParamsError(`Invalid parameter "${param}": ${problem}`, { param });
}

/**
 * The user declined a confirmation dialog: JSON-RPC code 4001.
 *
 * @param what - What was declined (for the message).
 * @returns The error to throw.
 */
export function userRejected(what: string): Error {
  return new UserRejectedRequestError(`The user rejected the request: ${what}`);
}

/**
 * A failure with an explicit JSON-RPC code and a message a person can act on, passed through to the caller as is.
 *
 * @param code - The error code (a Starknet RPC code for chain errors).
 * @param message - The message.
 * @param data - Optional structured details.
 * @returns The error to throw.
 */
export function snapError(code: number, message: string, data?: Record<string, unknown>): Error {
  return new SnapError({ code, message, ...(data ? { data: data as never } : {}) });
}

/** Codes the snap uses for its own failures that are not parameter errors. */
export const SnapErrorCode = {
  /** The account is not known to this snap (not derived from this recovery phrase within the scan range). */
  AccountNotFound: -32001,
  /** The account contract is not deployed yet. */
  AccountNotDeployed: -32002,
  /** The account contract is already deployed. */
  AccountAlreadyDeployed: -32003,
  /** The account already runs the newest account class. */
  UpgradeNotNeeded: -32004,
  /** The given maxFee is below the estimated fee. */
  MaxFeeTooLow: -32005,
  /** The nodegate endpoint could not be reached or answered with something that is not JSON-RPC. */
  NodeUnreachable: -32006,
  /** The class is already declared on the network. */
  ClassAlreadyDeclared: -32007,
  /** The address is not an ERC20 token (it does not answer name, symbol, decimals and balanceOf). */
  NotErc20: -32008,
} as const;
