/** Native ERC20 with OpenZeppelin semantics (snake_case and camelCase entry points). */
import { selector } from '../crypto/hashes.js';
import { toU256 } from '../felt.js';
import { CalldataReader } from './calldata.js';
import { storageMap, storageVar } from './storage.js';
import { type CallContext, ExecutionFailure, type NativeClassDef, type NativeFunction } from './types.js';

const U128 = 2n ** 128n;
const TRANSFER = selector('Transfer');
const APPROVAL = selector('Approval');

function readU256(ctx: CallContext, key: bigint): bigint {
  return ctx.readStorage(key) + (ctx.readStorage(key + 1n) << 128n);
}

function writeU256(ctx: CallContext, key: bigint, value: bigint): void {
  ctx.writeStorage(key, value % U128);
  ctx.writeStorage(key + 1n, value >> 128n);
}

/** Storage slot (low part) of an ERC20 balance. */
export function balanceSlot(owner: bigint): bigint {
  return storageMap('ERC20_balances', owner);
}

/** Storage slot (low part) of the total supply. */
export const totalSupplySlot = storageVar('ERC20_total_supply');

function u256Out(v: bigint): bigint[] {
  return toU256(v);
}

/** Move `amount` of tokens, emitting the Transfer event. Used by transfers, minting and fee charging. */
export function erc20Transfer(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
  if (to === 0n) throw new ExecutionFailure('ERC20: transfer to 0');
  if (from !== 0n) {
    const fromBal = readU256(ctx, balanceSlot(from));
    if (fromBal < amount) throw new ExecutionFailure('ERC20: insufficient balance');
    writeU256(ctx, balanceSlot(from), fromBal - amount);
  } else {
    writeU256(ctx, totalSupplySlot, readU256(ctx, totalSupplySlot) + amount);
  }
  writeU256(ctx, balanceSlot(to), readU256(ctx, balanceSlot(to)) + amount);
  const [low, high] = toU256(amount);
  ctx.emit([TRANSFER], [from, to, low, high]);
}

function spendAllowance(ctx: CallContext, owner: bigint, spender: bigint, amount: bigint): void {
  const slot = storageMap('ERC20_allowances', owner, spender);
  const current = readU256(ctx, slot);
  if (current === 2n ** 256n - 1n) return;
  if (current < amount) throw new ExecutionFailure('ERC20: insufficient allowance');
  writeU256(ctx, slot, current - amount);
}

function approve(ctx: CallContext, owner: bigint, spender: bigint, amount: bigint): void {
  if (owner === 0n) throw new ExecutionFailure('ERC20: approve from 0');
  if (spender === 0n) throw new ExecutionFailure('ERC20: approve to 0');
  writeU256(ctx, storageMap('ERC20_allowances', owner, spender), amount);
  const [low, high] = toU256(amount);
  ctx.emit([APPROVAL], [owner, spender, low, high]);
}

const A = 'core::starknet::contract_address::ContractAddress';
const U256 = 'core::integer::u256';
const BOOL = 'core::bool';
const FELT = 'core::felt252';

const balanceOf = (ctx: CallContext, cd: readonly bigint[]) =>
  u256Out(readU256(ctx, balanceSlot(new CalldataReader(cd).felt())));
const totalSupply = (ctx: CallContext) => u256Out(readU256(ctx, totalSupplySlot));
const transferFrom = (ctx: CallContext, cd: readonly bigint[]) => {
  const r = new CalldataReader(cd);
  const sender = r.felt();
  const recipient = r.felt();
  const amount = r.u256();
  spendAllowance(ctx, sender, ctx.caller, amount);
  erc20Transfer(ctx, sender, recipient, amount);
  return [1n];
};

/** OZ ERC20s answer both snake_case and camelCase names: the entry, then its camelCase twin. */
const withCamelAlias = (entry: NativeFunction, camel: string): NativeFunction[] => [entry, { ...entry, name: camel }];

const functions: NativeFunction[] = [
  {
    name: 'name',
    inputs: [],
    outputs: [FELT],
    mutability: 'view',
    run: (ctx) => [ctx.readStorage(storageVar('ERC20_name'))],
  },
  {
    name: 'symbol',
    inputs: [],
    outputs: [FELT],
    mutability: 'view',
    run: (ctx) => [ctx.readStorage(storageVar('ERC20_symbol'))],
  },
  {
    name: 'decimals',
    inputs: [],
    outputs: ['core::integer::u8'],
    mutability: 'view',
    run: (ctx) => [ctx.readStorage(storageVar('ERC20_decimals'))],
  },
  ...withCamelAlias(
    { name: 'total_supply', inputs: [], outputs: [U256], mutability: 'view', run: totalSupply },
    'totalSupply',
  ),
  ...withCamelAlias(
    { name: 'balance_of', inputs: [['account', A]], outputs: [U256], mutability: 'view', run: balanceOf },
    'balanceOf',
  ),
  {
    name: 'allowance',
    inputs: [
      ['owner', A],
      ['spender', A],
    ],
    outputs: [U256],
    mutability: 'view',
    run: (ctx, cd) => {
      const r = new CalldataReader(cd);
      return u256Out(readU256(ctx, storageMap('ERC20_allowances', r.felt(), r.felt())));
    },
  },
  {
    name: 'transfer',
    inputs: [
      ['recipient', A],
      ['amount', U256],
    ],
    outputs: [BOOL],
    mutability: 'external',
    run: (ctx, cd) => {
      const r = new CalldataReader(cd);
      const recipient = r.felt();
      erc20Transfer(ctx, ctx.caller, recipient, r.u256());
      return [1n];
    },
  },
  ...withCamelAlias(
    {
      name: 'transfer_from',
      inputs: [
        ['sender', A],
        ['recipient', A],
        ['amount', U256],
      ],
      outputs: [BOOL],
      mutability: 'external',
      run: transferFrom,
    },
    'transferFrom',
  ),
  {
    name: 'approve',
    inputs: [
      ['spender', A],
      ['amount', U256],
    ],
    outputs: [BOOL],
    mutability: 'external',
    run: (ctx, cd) => {
      const r = new CalldataReader(cd);
      const spender = r.felt();
      approve(ctx, ctx.caller, spender, r.u256());
      return [1n];
    },
  },
];

/** The native ERC20 class (used for STRK, ETH and ERC20s deployed through the UDC). */
export const erc20Class: NativeClassDef = {
  name: 'nodegate::erc20::ERC20',
  interfaceName: 'nodegate::erc20::IERC20',
  functions,
  constructorInputs: [
    ['name', FELT],
    ['symbol', FELT],
    ['decimals', 'core::integer::u8'],
    ['initial_supply', U256],
    ['recipient', A],
  ],
  construct: (ctx, cd) => {
    const r = new CalldataReader(cd);
    ctx.writeStorage(storageVar('ERC20_name'), r.felt());
    ctx.writeStorage(storageVar('ERC20_symbol'), r.felt());
    ctx.writeStorage(storageVar('ERC20_decimals'), r.felt());
    const supply = r.u256();
    const recipient = r.felt();
    if (supply > 0n) erc20Transfer(ctx, 0n, recipient, supply);
    return [];
  },
  l1Handlers: [
    {
      name: 'handle_deposit',
      inputs: [
        ['from_address', FELT],
        ['recipient', A],
        ['amount', U256],
      ],
      outputs: [],
      mutability: 'external',
      run: (ctx, cd) => {
        const r = new CalldataReader(cd);
        r.felt();
        const recipient = r.felt();
        erc20Transfer(ctx, 0n, recipient, r.u256());
        return [];
      },
    },
  ],
  events: [
    {
      name: 'Transfer',
      members: [
        ['from', A, 'data'],
        ['to', A, 'data'],
        ['value', U256, 'data'],
      ],
    },
    {
      name: 'Approval',
      members: [
        ['owner', A, 'data'],
        ['spender', A, 'data'],
        ['value', U256, 'data'],
      ],
    },
  ],
  account: false,
};
