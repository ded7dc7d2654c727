/** Native OpenZeppelin-style account: constructor(public_key). */
import { accountEntryPoints, assertSelf, checkSignature, validateDeployEntryPoint } from './accountCommon.js';
import { storageVar } from './storage.js';
import { type CallContext, ExecutionFailure, type NativeClassDef } from './types.js';

const KEY = storageVar('Account_public_key');
const FELT = 'core::felt252';

const isValid = (ctx: CallContext, hash: bigint, sig: readonly bigint[]) =>
  checkSignature(hash, sig, ctx.readStorage(KEY));

/** The native OpenZeppelin-style account class. */
export const ozAccountClass: NativeClassDef = {
  name: 'nodegate::account::OZAccount',
  interfaceName: 'nodegate::account::IOZAccount',
  account: true,
  constructorInputs: [['public_key', FELT]],
  construct: (ctx, cd) => {
    const key = cd[0];
    if (key === undefined || key === 0n) throw new ExecutionFailure('Account: invalid public key');
    ctx.writeStorage(KEY, key);
    return [];
  },
  functions: [
    ...accountEntryPoints(isValid),
    validateDeployEntryPoint(
      [
        ['class_hash', FELT],
        ['contract_address_salt', FELT],
        ['public_key', FELT],
      ],
      isValid,
    ),
    { name: 'get_public_key', inputs: [], outputs: [FELT], mutability: 'view', run: (ctx) => [ctx.readStorage(KEY)] },
    { name: 'getPublicKey', inputs: [], outputs: [FELT], mutability: 'view', run: (ctx) => [ctx.readStorage(KEY)] },
    {
      name: 'set_public_key',
      inputs: [
        ['new_public_key', FELT],
        ['signature', 'core::array::Span::<core::felt252>'],
      ],
      outputs: [],
      mutability: 'external',
      run: (ctx, cd) => {
        assertSelf(ctx);
        const key = cd[0];
        if (key === undefined || key === 0n) throw new ExecutionFailure('Account: invalid public key');
        ctx.writeStorage(KEY, key);
        return [];
      },
    },
  ],
};
