/** Native Argent-style accounts: constructor(owner, guardian), two versions with upgrade between them. */
import { shortString } from '../felt.js';
import { selector } from '../crypto/hashes.js';
import {
  accountEntryPoints,
  assertSelf,
  checkSignature,
  executeCalls,
  validateDeployEntryPoint,
} from './accountCommon.js';
import { CalldataReader } from './calldata.js';
import { storageVar } from './storage.js';
import { type CallContext, ExecutionFailure, type NativeClassDef } from './types.js';

const OWNER = storageVar('_signer');
const GUARDIAN = storageVar('_guardian');
const FELT = 'core::felt252';
const TRANSACTION_EXECUTED = selector('TransactionExecuted');

function isValid(ctx: CallContext, hash: bigint, sig: readonly bigint[]): boolean {
  const owner = ctx.readStorage(OWNER);
  const guardian = ctx.readStorage(GUARDIAN);
  if (guardian === 0n) return checkSignature(hash, sig, owner);
  if (sig.length !== 4) return false;
  return checkSignature(hash, sig.slice(0, 2), owner) && checkSignature(hash, sig.slice(2, 4), guardian);
}

/** Class names of the Argent-style versions, oldest first. */
export const ARGENT_CLASS_NAMES = [
  'nodegate::argent::ArgentAccount_v0_3_0',
  'nodegate::argent::ArgentAccount_v0_4_0',
] as const;

function argentClass(major: bigint, minor: bigint, patch: bigint): NativeClassDef {
  const version = `${major}.${minor}.${patch}`;
  return {
    events: [
      {
        name: 'TransactionExecuted',
        members: [
          ['hash', FELT, 'key'],
          ['response', 'core::array::Span::<core::array::Span::<core::felt252>>', 'data'],
        ],
      },
    ],
    name: `nodegate::argent::ArgentAccount_v${major}_${minor}_${patch}`,
    interfaceName: 'nodegate::argent::IArgentAccount',
    account: true,
    constructorInputs: [
      ['owner', FELT],
      ['guardian', FELT],
    ],
    construct: (ctx, cd) => {
      const r = new CalldataReader(cd);
      const owner = r.felt();
      const guardian = r.felt();
      if (owner === 0n) throw new ExecutionFailure('argent/null-owner');
      ctx.writeStorage(OWNER, owner);
      ctx.writeStorage(GUARDIAN, guardian);
      return [];
    },
    functions: [
      ...accountEntryPoints(isValid).map((f) =>
        f.name === '__execute__'
          ? {
              ...f,
              run: (ctx: CallContext, cd: readonly bigint[]) => {
                const out = executeCalls(ctx, cd);
                ctx.emit([TRANSACTION_EXECUTED, ctx.tx.hash], out);
                return out;
              },
            }
          : f,
      ),
      validateDeployEntryPoint(
        [
          ['class_hash', FELT],
          ['contract_address_salt', FELT],
          ['owner', FELT],
          ['guardian', FELT],
        ],
        isValid,
      ),
      { name: 'get_owner', inputs: [], outputs: [FELT], mutability: 'view', run: (ctx) => [ctx.readStorage(OWNER)] },
      {
        name: 'get_guardian',
        inputs: [],
        outputs: [FELT],
        mutability: 'view',
        run: (ctx) => [ctx.readStorage(GUARDIAN)],
      },
      {
        name: 'get_version',
        inputs: [],
        outputs: ['nodegate::argent::Version'],
        mutability: 'view',
        run: () => [major, minor, patch],
      },
      { name: 'getVersion', inputs: [], outputs: [FELT], mutability: 'view', run: () => [shortString(version)] },
      { name: 'get_name', inputs: [], outputs: [FELT], mutability: 'view', run: () => [shortString('ArgentAccount')] },
      {
        name: 'upgrade',
        inputs: [
          ['new_implementation', 'core::starknet::class_hash::ClassHash'],
          ['calldata', 'core::array::Array::<core::felt252>'],
        ],
        outputs: ['core::array::Array::<core::felt252>'],
        mutability: 'external',
        run: (ctx, cd) => {
          assertSelf(ctx);
          const target = cd[0] ?? 0n;
          const name = ctx.nativeNameOf(target);
          if (!name || !(ARGENT_CLASS_NAMES as readonly string[]).includes(name)) {
            throw new ExecutionFailure('argent/invalid-implementation');
          }
          ctx.replaceClass(target);
          return [0n];
        },
      },
    ],
  };
}

/** The older Argent-style account version (0.3.0). */
export const argentAccountV030Class = argentClass(0n, 3n, 0n);
/** The newer Argent-style account version (0.4.0). */
export const argentAccountV040Class = argentClass(0n, 4n, 0n);
