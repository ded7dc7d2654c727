import { DevchainError, ErrorCode } from '../../errors.js';
import { parseFelt } from '../../felt.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * starknet_getCompiledCasm: the dev chain runs Sierra itself and never compiles it to CASM, so
 * a declared class answers COMPILATION_ERROR (100) saying so, and an unknown one
 * CLASS_HASH_NOT_FOUND (28).
 */
export function starknet_getCompiledCasm(ctx: MethodContext, p: Params): never {
  const classHash = parseFelt(required(p, 'class_hash'), 'class_hash');
  if (!ctx.node.chain.stateAt({ tag: 'latest' }).getDeclared(classHash)) {
    throw new DevchainError(ErrorCode.CLASS_HASH_NOT_FOUND);
  }
  throw new DevchainError(ErrorCode.COMPILATION_ERROR, {
    data: { compilation_error: 'the dev chain does not compile Sierra to CASM: CASM is not available here' },
  });
}
