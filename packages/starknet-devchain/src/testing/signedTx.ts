/** Test helpers: build and sign raw transactions of every shape with starknet.js hash functions. */
import { ec, hash, num, v2hash, v3hash } from 'starknet';
import { syntheticClass } from './syntheticClass.js';

/** Chain id of SN_SEPOLIA. */
export const SEPOLIA = '0x534e5f5345504f4c4941';

/** Sign a hash with a private key; returns [r, s] as hex. */
export function sign(msgHash: string, privateKey: string): string[] {
  const s = ec.starkCurve.sign(msgHash, privateKey);
  return [num.toHex(s.r), num.toHex(s.s)];
}

/** Generous v3 resource bounds (three resources). */
export function bounds3(l2 = 5_000_000n, price = 2_000_000_000n) {
  return {
    l1_gas: { max_amount: 0n, max_price_per_unit: price },
    l2_gas: { max_amount: l2, max_price_per_unit: price },
    l1_data_gas: { max_amount: 5_000n, max_price_per_unit: price },
  };
}

const hexBounds = (b: Record<string, { max_amount: bigint; max_price_per_unit: bigint }>) =>
  Object.fromEntries(
    Object.entries(b).map(([k, v]) => [
      k,
      { max_amount: num.toHex(v.max_amount), max_price_per_unit: num.toHex(v.max_price_per_unit) },
    ]),
  );

/** The fee fields every v3 transaction carries (no paymaster, L1 data availability). */
function v3Fields(b: Record<string, { max_amount: bigint; max_price_per_unit: bigint }>, tip = 0n) {
  return {
    resource_bounds: hexBounds(b),
    tip: num.toHex(tip),
    paymaster_data: [],
    nonce_data_availability_mode: 'L1',
    fee_data_availability_mode: 'L1',
  };
}

/** The fee hash of a v3 transaction with only l1_gas and l2_gas bounds (tip 0), as the protocol hashed it. */
function twoBoundsFeeHash(b: {
  l1_gas: { max_amount: bigint; max_price_per_unit: bigint };
  l2_gas: { max_amount: bigint; max_price_per_unit: bigint };
}) {
  return hash.computePoseidonHashOnElements([
    0n,
    v3hash.encodeResourceBoundsL1(b as any),
    v3hash.encodeResourceBoundsL2(b as any),
  ]);
}

/** A signed v3 INVOKE with three resource bounds, hashed by starknet.js. */
export function invokeV3(
  sender: string,
  calldata: string[],
  nonce: bigint,
  privateKey: string,
  opts: { bounds?: ReturnType<typeof bounds3>; tip?: bigint; version?: string } = {},
) {
  const b = opts.bounds ?? bounds3();
  const version = opts.version ?? '0x3';
  const h = v3hash.calculateInvokeTransactionHash(
    sender,
    version,
    calldata,
    SEPOLIA,
    nonce,
    [],
    0 as any,
    0 as any,
    b as any,
    opts.tip ?? 0n,
    [],
  );
  return {
    hash: h,
    tx: {
      type: 'INVOKE',
      sender_address: sender,
      calldata,
      version,
      signature: sign(h, privateKey),
      nonce: num.toHex(nonce),
      ...v3Fields(b, opts.tip ?? 0n),
      account_deployment_data: [],
    },
  };
}

/** A signed v3 INVOKE of the older shape with only l1_gas and l2_gas bounds. */
export function invokeV3TwoBounds(
  sender: string,
  calldata: string[],
  nonce: bigint,
  privateKey: string,
  b: {
    l1_gas: { max_amount: bigint; max_price_per_unit: bigint };
    l2_gas: { max_amount: bigint; max_price_per_unit: bigint };
  },
) {
  const feeHash = twoBoundsFeeHash(b);
  const h = hash.computePoseidonHashOnElements([
    '0x696e766f6b65', // 'invoke'
    3n,
    sender,
    feeHash,
    hash.computePoseidonHashOnElements([]),
    SEPOLIA,
    nonce,
    0n,
    hash.computePoseidonHashOnElements([]),
    hash.computePoseidonHashOnElements(calldata),
  ]);
  return {
    hash: h,
    tx: {
      type: 'INVOKE',
      sender_address: sender,
      calldata,
      version: '0x3',
      signature: sign(h, privateKey),
      nonce: num.toHex(nonce),
      ...v3Fields(b),
      account_deployment_data: [],
    },
  };
}

/** A signed v1 INVOKE with max_fee (fee paid in ETH), hashed by starknet.js v2 functions. */
export function invokeV1(sender: string, calldata: string[], nonce: bigint, maxFee: bigint, privateKey: string) {
  const h = v2hash.calculateTransactionHash(sender, '0x1', calldata, maxFee, SEPOLIA, nonce);
  return {
    hash: h,
    tx: {
      type: 'INVOKE',
      sender_address: sender,
      calldata,
      max_fee: num.toHex(maxFee),
      version: '0x1',
      signature: sign(h, privateKey),
      nonce: num.toHex(nonce),
    },
  };
}

/** A signed v1 DEPLOY_ACCOUNT with max_fee. */
export function deployAccountV1(classHash: string, ctor: string[], salt: string, maxFee: bigint, privateKey: string) {
  const address = hash.calculateContractAddressFromHash(salt, classHash, ctor, 0);
  const h = v2hash.calculateDeployAccountTransactionHash(address, classHash, ctor, salt, '0x1', maxFee, SEPOLIA, 0n);
  return {
    hash: h,
    address,
    tx: {
      type: 'DEPLOY_ACCOUNT',
      max_fee: num.toHex(maxFee),
      version: '0x1',
      signature: sign(h, privateKey),
      nonce: '0x0',
      contract_address_salt: salt,
      constructor_calldata: ctor,
      class_hash: classHash,
    },
  };
}

/** A signed v3 DEPLOY_ACCOUNT. */
export function deployAccountV3(
  classHash: string,
  ctor: string[],
  salt: string,
  privateKey: string,
  opts: { bounds?: ReturnType<typeof bounds3>; version?: string } = {},
) {
  const b = opts.bounds ?? bounds3();
  const version = opts.version ?? '0x3';
  const address = hash.calculateContractAddressFromHash(salt, classHash, ctor, 0);
  const h = v3hash.calculateDeployAccountTransactionHash(
    address,
    classHash,
    ctor,
    salt,
    version,
    SEPOLIA,
    0n,
    0 as any,
    0 as any,
    b as any,
    0n,
    [],
  );
  return {
    hash: h,
    address,
    tx: {
      type: 'DEPLOY_ACCOUNT',
      version,
      signature: sign(h, privateKey),
      nonce: '0x0',
      contract_address_salt: salt,
      constructor_calldata: ctor,
      class_hash: classHash,
      ...v3Fields(b),
    },
  };
}

/** A signed v2 DECLARE with max_fee. */
export function declareV2(sender: string, tag: string, nonce: bigint, maxFee: bigint, privateKey: string) {
  const { contract, classHash } = syntheticClass(tag);
  const compiled = '0x1234';
  const h = v2hash.calculateDeclareTransactionHash(classHash, sender, '0x2', maxFee, SEPOLIA, nonce, compiled);
  return {
    hash: h,
    classHash,
    tx: {
      type: 'DECLARE',
      sender_address: sender,
      compiled_class_hash: compiled,
      max_fee: num.toHex(maxFee),
      version: '0x2',
      signature: sign(h, privateKey),
      nonce: num.toHex(nonce),
      contract_class: { ...contract, abi: hash.formatSpaces(JSON.stringify(contract.abi)) },
    },
  };
}

/** A signed v3 DECLARE. */
export function declareV3(sender: string, tag: string, nonce: bigint, privateKey: string) {
  const { contract, classHash } = syntheticClass(tag);
  const compiled = '0x5678';
  const b = bounds3();
  const h = v3hash.calculateDeclareTransactionHash(
    classHash,
    compiled,
    sender,
    '0x3',
    SEPOLIA,
    nonce,
    [],
    0 as any,
    0 as any,
    b as any,
    0n,
    [],
  );
  return {
    hash: h,
    classHash,
    tx: {
      type: 'DECLARE',
      sender_address: sender,
      compiled_class_hash: compiled,
      version: '0x3',
      signature: sign(h, privateKey),
      nonce: num.toHex(nonce),
      contract_class: { ...contract, abi: hash.formatSpaces(JSON.stringify(contract.abi)) },
      ...v3Fields(b),
      account_deployment_data: [],
    },
  };
}

/** Calldata of a Cairo 1 multicall with one STRK transfer. */
export function transferCalldata(token: string, recipient: string, amount: bigint): string[] {
  return [
    '0x1',
    token,
    hash.getSelectorFromName('transfer'),
    '0x3',
    recipient,
    num.toHex(amount & (2n ** 128n - 1n)),
    num.toHex(amount >> 128n),
  ];
}

/** A signed v3 DEPLOY_ACCOUNT of the older shape with only l1_gas and l2_gas bounds. */
export function deployAccountV3TwoBounds(
  classHash: string,
  ctor: string[],
  salt: string,
  privateKey: string,
  b: {
    l1_gas: { max_amount: bigint; max_price_per_unit: bigint };
    l2_gas: { max_amount: bigint; max_price_per_unit: bigint };
  },
) {
  const address = hash.calculateContractAddressFromHash(salt, classHash, ctor, 0);
  const feeHash = twoBoundsFeeHash(b);
  const h = hash.computePoseidonHashOnElements([
    '0x6465706c6f795f6163636f756e74', // 'deploy_account'
    3n,
    address,
    feeHash,
    hash.computePoseidonHashOnElements([]),
    SEPOLIA,
    0n,
    0n,
    hash.computePoseidonHashOnElements(ctor),
    classHash,
    salt,
  ]);
  return {
    hash: h,
    address,
    tx: {
      type: 'DEPLOY_ACCOUNT',
      version: '0x3',
      signature: sign(h, privateKey),
      nonce: '0x0',
      contract_address_salt: salt,
      constructor_calldata: ctor,
      class_hash: classHash,
      ...v3Fields(b),
    },
  };
}
