/** Behaviour shared by the native account classes: multicall execution and signature checks. */
import { verifyStarkSignature } from '../crypto/verifyStarkSignature.js';
import { shortString } from '../felt.js';
import { decodeCalls } from './calldata.js';
import { type CallContext, ExecutionFailure, type NativeFunction } from './types.js';

/** The magic value returned by successful validation. */
export const VALID = shortString('VALID');

/** SRC6 and SRC5 interface ids. */
export const ISRC6_ID = 0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cdn;
export const ISRC5_ID = 0x3f918d17e5ee77373b56385708f855659a07f75997f365cf87748628532a055n;

/** Check that `signature` is a valid `[r, s]` pair by `publicKey` over `hash`. */
export function checkSignature(hash: bigint, signature: readonly bigint[], publicKey: bigint): boolean {
  const [r, s] = signature;
  if (signature.length !== 2 || r === undefined || s === undefined) return false;
  return verifyStarkSignature(hash, r, s, publicKey);
}

/** Run the calls of an `__execute__` and serialise the results as `Array<Span<felt252>>`. */
export function executeCalls(ctx: CallContext, calldata: readonly bigint[]): bigint[] {
  if (ctx.caller !== 0n) throw new ExecutionFailure('Account: invalid caller');
  const calls = decodeCalls(calldata);
  const out: bigint[] = [BigInt(calls.length)];
  for (const call of calls) {
    const ret = ctx.call(call.to, call.selector, call.calldata);
    out.push(BigInt(ret.length), ...ret);
  }
  return out;
}

/** Assert that the caller is the account itself. */
export function assertSelf(ctx: CallContext): void {
  if (ctx.caller !== ctx.self) throw new ExecutionFailure('Account: unauthorized');
}

const CALLS = 'core::array::Array::<core::starknet::account::Call>';
const FELT = 'core::felt252';

/**
 * The validate/execute entry points of an account, given how it checks a signature over a hash.
 * `validateDeploy` receives `[class_hash, salt, ...constructor_calldata]`.
 */
export function accountEntryPoints(
  isValid: (ctx: CallContext, hash: bigint, sig: readonly bigint[]) => boolean,
): NativeFunction[] {
  const validateTx = (ctx: CallContext): bigint[] => {
    if (!isValid(ctx, ctx.tx.hash, ctx.tx.signature)) throw new ExecutionFailure('Account: invalid signature');
    return [VALID];
  };
  return [
    { name: '__validate__', inputs: [['calls', CALLS]], outputs: [FELT], mutability: 'external', run: validateTx },
    {
      name: '__execute__',
      inputs: [['calls', CALLS]],
      outputs: ['core::array::Array::<core::array::Span::<core::felt252>>'],
      mutability: 'external',
      run: executeCalls,
    },
    {
      name: '__validate_declare__',
      inputs: [['class_hash', FELT]],
      outputs: [FELT],
      mutability: 'external',
      run: validateTx,
    },
    {
      name: 'is_valid_signature',
      inputs: [
        ['hash', FELT],
        ['signature', 'core::array::Array::<core::felt252>'],
      ],
      outputs: [FELT],
      mutability: 'view',
      run: (ctx, cd) => {
        const hash = cd[0] ?? 0n;
        const len = Number(cd[1] ?? 0n);
        return [isValid(ctx, hash, cd.slice(2, 2 + len)) ? VALID : 0n];
      },
    },
    {
      name: 'supports_interface',
      inputs: [['interface_id', FELT]],
      outputs: ['core::bool'],
      mutability: 'view',
      run: (_ctx, cd) => [cd[0] === ISRC6_ID || cd[0] === ISRC5_ID ? 1n : 0n],
    },
  ];
}

/** The `__validate_deploy__` entry point: checks the transaction signature. */
export function validateDeployEntryPoint(
  inputs: NativeFunction['inputs'],
  isValid: (ctx: CallContext, hash: bigint, sig: readonly bigint[]) => boolean,
): NativeFunction {
  return {
    name: '__validate_deploy__',
    inputs,
    outputs: [FELT],
    mutability: 'external',
    run: (ctx) => {
      if (!isValid(ctx, ctx.tx.hash, ctx.tx.signature)) throw new ExecutionFailure('Account: invalid signature');
      return [VALID];
    },
  };
}
