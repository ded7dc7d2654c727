/**
 * nodegate's L1 messaging contract: the interface of Starknet's `StarknetMessaging` core contract and of the
 * `MockStarknetMessaging` test contract that devnets load (same selectors, events, message hashes, named storage
 * slots and revert reasons), written in EVM assembly (`assembleEvm.ts`). It keeps no owner and no cancellation flow.
 *
 * - `sendMessageToL2(uint256 toAddress, uint256 selector, uint256[] payload) payable returns (bytes32, uint256)`:
 *   at most `MAX_L1_MSG_FEE` (1 ether) paid; takes the next nonce, emits `LogMessageToL2`, and marks the message
 *   pending (`l1ToL2Messages[hash] = fee + 1`).
 * - `consumeMessageFromL2(uint256 fromAddress, uint256[] payload) returns (bytes32)`: the message from L2 contract
 *   `fromAddress` to `msg.sender` must be pending (`INVALID_MESSAGE_TO_CONSUME`); decrements it, emits
 *   `ConsumedMessageToL1`.
 * - `mockSendMessageFromL2(uint256 fromAddress, uint256 toAddress, uint256[] payload)`: what the postman calls on
 *   flush, making an L2 → L1 message consumable (emits `LogMessageToL1`, as the core contract does on a state update).
 * - `mockConsumeMessageToL2(uint256 fromAddress, uint256 toAddress, uint256 selector, uint256[] payload, uint256
 *   nonce)`: marks an L1 → L2 message consumed (emits `ConsumedMessageToL2`).
 * - views: `l1ToL2Messages(bytes32)`, `l2ToL1Messages(bytes32)`, `l1ToL2MessageNonce()`, `getMaxL1MsgFee()`.
 *
 * Hashes, as Starknet defines them: L1 → L2 `keccak256(sender, toAddress, nonce, selector, payload.length,
 * ...payload)`, L2 → L1 `keccak256(fromAddress, toAddress, payload.length, ...payload)`, every value a uint256 word.
 */
import { assembleEvm, creationCode, type EvmItem, label, push, pushLabel } from './assembleEvm.js';

/** 4-byte function selectors (keccak256 of the signatures; checked by the tests). */
export const MESSAGING_SELECTORS = {
  sendMessageToL2: 0x3e3aa6c5,
  consumeMessageFromL2: 0x2c9dd5c0,
  mockSendMessageFromL2: 0xd1fb1509,
  mockConsumeMessageToL2: 0x067aba99,
  l1ToL2Messages: 0x77c7d7a9,
  l2ToL1Messages: 0xa46efaf3,
  l1ToL2MessageNonce: 0x018cccdf,
  getMaxL1MsgFee: 0x54eccba4,
} as const;

/** Event topics (keccak256 of the event signatures; checked by the tests). */
export const MESSAGING_TOPICS = {
  /** `LogMessageToL2(address indexed fromAddress, uint256 indexed toAddress, uint256 indexed selector, uint256[] payload, uint256 nonce, uint256 fee)` */
  LogMessageToL2: 0xdb80dd488acf86d17c747445b0eabb5d57c541d3bd7b6b87af987858e5066b2bn,
  /** `ConsumedMessageToL1(uint256 indexed fromAddress, address indexed toAddress, uint256[] payload)` */
  ConsumedMessageToL1: 0x7a06c571aa77f34d9706c51e5d8122b5595aebeaa34233bfe866f22befb973b1n,
  /** `LogMessageToL1(uint256 indexed fromAddress, address indexed toAddress, uint256[] payload)` */
  LogMessageToL1: 0x4264ac208b5fde633ccdd42e0f12c3d6d443a4f3779bbf886925b94665b63a22n,
  /** `ConsumedMessageToL2(address indexed fromAddress, uint256 indexed toAddress, uint256 indexed selector, uint256[] payload, uint256 nonce)` */
  ConsumedMessageToL2: 0x9592d37825c744e33fa80c469683bbd04d336241bb600b574758efd182abe26an,
} as const;

/** The named storage slots of StarknetMessaging (keccak256 of their tags; checked by the tests). */
export const MESSAGING_SLOTS = {
  /** `STARKNET_1.0_MSGING_L1TOL2_MAPPPING_V2`: the base of `l1ToL2Messages`. */
  l1ToL2Messages: 0xede2d48f0b410d1c4f4caf449aa8696827c73bfe7f534fbfb4efaf2b9a362bfdn,
  /** `STARKNET_1.0_MSGING_L2TOL1_MAPPPING`: the base of `l2ToL1Messages`. */
  l2ToL1Messages: 0xcbc7abc335240960b5bc2cd0381440eb03dc62f362591b8f8e40b047737c8c1an,
  /** `STARKNET_1.0_MSGING_L1TOL2_NONCE`: `l1ToL2MessageNonce`. */
  l1ToL2MessageNonce: 0x40af3c5d10641ea6a095e7a9b843218461f4c8d604207c721ffceec9721b1ac5n,
} as const;

/** The most an L1 → L2 message may pay (1 ether), as `MAX_L1_MSG_FEE`. */
export const MAX_L1_MSG_FEE = 10n ** 18n;

// Memory: three words of variables, a 64-byte scratch for mapping slots, then the buffer hashes and events are built in.
const LEN = 0x00;
const DATA = 0x20;
const NONCE = 0x40;
const SCRATCH = 0xc0;
const BUF = 0x100;
const ADDRESS_MASK = (1n << 160n) - 1n;
const ERROR_SELECTOR = 0x08c379a0n;

/** `argument i` (a static word) of the call. */
const arg = (i: number): EvmItem[] => [push(4 + 32 * i), 'CALLDATALOAD'];
const load = (at: number): EvmItem[] => [push(at), 'MLOAD'];
const store = (at: number): EvmItem[] => [push(at), 'MSTORE'];

/** Reverts (without a reason) when the call carries value. */
const nonPayable: EvmItem[] = ['CALLVALUE', pushLabel('fail'), 'JUMPI'];

/** Reverts (without a reason) when the calldata is shorter than `words` arguments. */
const minArgs = (words: number): EvmItem[] => [push(4 + 32 * words), 'CALLDATASIZE', 'LT', pushLabel('fail'), 'JUMPI'];

/**
 * Reads the `uint256[]` whose offset is argument `i`: its length to LEN and the calldata position of its first element
 * to DATA, reverting when the offset or length is out of range or the array runs past the calldata.
 */
function readArray(i: number): EvmItem[] {
  const max = push(0xffffffff);
  return [
    ...arg(i), // [offset]
    max,
    'DUP2',
    'GT',
    pushLabel('fail'),
    'JUMPI',
    push(4),
    'ADD', // [lengthPosition]
    'DUP1',
    'CALLDATALOAD', // [lengthPosition, length]
    max,
    'DUP2',
    'GT',
    pushLabel('fail'),
    'JUMPI',
    'DUP1',
    ...store(LEN),
    'SWAP1',
    push(0x20),
    'ADD', // [length, data]
    'DUP1',
    ...store(DATA),
    'SWAP1',
    push(5),
    'SHL',
    'ADD', // [end]
    'CALLDATASIZE',
    'LT',
    pushLabel('fail'),
    'JUMPI',
  ];
}

/** Copies the array read by {@link readArray} to memory at `at`. */
const copyArray = (at: number): EvmItem[] => [...load(LEN), push(5), 'SHL', ...load(DATA), push(at), 'CALLDATACOPY'];

/** Pushes the byte size of `head` bytes followed by the array. */
const sizeWithArray = (head: number): EvmItem[] => [...load(LEN), push(5), 'SHL', push(head), 'ADD'];

/** [key] → [slot of key in the mapping at `base`]: keccak256(key . base). */
const mappingSlot = (base: bigint): EvmItem[] => [
  push(SCRATCH),
  'MSTORE',
  push(base),
  push(SCRATCH + 0x20),
  'MSTORE',
  push(0x40),
  push(SCRATCH),
  'KECCAK256',
];

/** Returns the word on top of the stack. */
const returnWord: EvmItem[] = [push(0), 'MSTORE', push(0x20), push(0), 'RETURN'];

/** Reverts with `Error(reason)` (a reason of at most 32 bytes). */
function revertWith(reason: string): EvmItem[] {
  const bytes = new TextEncoder().encode(reason);
  if (bytes.length > 32) throw new Error('reason too long');
  const word = BigInt(`0x${Buffer.from(bytes).toString('hex').padEnd(64, '0')}`);
  return [
    push(ERROR_SELECTOR << 224n),
    push(0),
    'MSTORE',
    push(0x20),
    push(4),
    'MSTORE',
    push(bytes.length),
    push(0x24),
    'MSTORE',
    push(word),
    push(0x44),
    'MSTORE',
    push(0x64),
    push(0),
    'REVERT',
  ];
}

/** Jumps to `name` when the selector on top of the stack is `selector` (the selector stays). */
const route = (selector: number, name: string): EvmItem[] => ['DUP1', push(selector), 'EQ', pushLabel(name), 'JUMPI'];

const program: EvmItem[] = [
  ...minArgs(0),
  push(0),
  'CALLDATALOAD',
  push(0xe0),
  'SHR',
  ...route(MESSAGING_SELECTORS.sendMessageToL2, 'sendMessageToL2'),
  ...route(MESSAGING_SELECTORS.consumeMessageFromL2, 'consumeMessageFromL2'),
  ...route(MESSAGING_SELECTORS.mockSendMessageFromL2, 'mockSendMessageFromL2'),
  ...route(MESSAGING_SELECTORS.mockConsumeMessageToL2, 'mockConsumeMessageToL2'),
  ...route(MESSAGING_SELECTORS.l1ToL2Messages, 'l1ToL2Messages'),
  ...route(MESSAGING_SELECTORS.l2ToL1Messages, 'l2ToL1Messages'),
  ...route(MESSAGING_SELECTORS.l1ToL2MessageNonce, 'l1ToL2MessageNonce'),
  ...route(MESSAGING_SELECTORS.getMaxL1MsgFee, 'getMaxL1MsgFee'),
  label('fail'),
  push(0),
  push(0),
  'REVERT',

  // sendMessageToL2(uint256 toAddress, uint256 selector, uint256[] payload) payable returns (bytes32, uint256)
  label('sendMessageToL2'),
  ...minArgs(3),
  push(MAX_L1_MSG_FEE),
  'CALLVALUE',
  'GT',
  pushLabel('feeExceeded'),
  'JUMPI',
  ...readArray(2),
  push(MESSAGING_SLOTS.l1ToL2MessageNonce),
  'SLOAD',
  'DUP1',
  ...store(NONCE),
  push(1),
  'ADD',
  push(MESSAGING_SLOTS.l1ToL2MessageNonce),
  'SSTORE',
  // LogMessageToL2: data (payload, nonce, fee) = [0x60, nonce, fee, length, ...payload]
  push(0x60),
  ...store(BUF),
  ...load(NONCE),
  ...store(BUF + 0x20),
  'CALLVALUE',
  ...store(BUF + 0x40),
  ...load(LEN),
  ...store(BUF + 0x60),
  ...copyArray(BUF + 0x80),
  ...arg(1),
  ...arg(0),
  'CALLER',
  push(MESSAGING_TOPICS.LogMessageToL2),
  ...sizeWithArray(0x80),
  push(BUF),
  'LOG4',
  // hash = keccak256(sender, toAddress, nonce, selector, length, ...payload)
  'CALLER',
  ...store(BUF),
  ...arg(0),
  ...store(BUF + 0x20),
  ...load(NONCE),
  ...store(BUF + 0x40),
  ...arg(1),
  ...store(BUF + 0x60),
  ...load(LEN),
  ...store(BUF + 0x80),
  ...copyArray(BUF + 0xa0),
  ...sizeWithArray(0xa0),
  push(BUF),
  'KECCAK256', // [hash]
  'DUP1',
  ...mappingSlot(MESSAGING_SLOTS.l1ToL2Messages),
  'CALLVALUE',
  push(1),
  'ADD',
  'SWAP1',
  'SSTORE', // l1ToL2Messages[hash] = fee + 1
  push(0),
  'MSTORE',
  ...load(NONCE),
  push(0x20),
  'MSTORE',
  push(0x40),
  push(0),
  'RETURN',
  label('feeExceeded'),
  ...revertWith('MAX_L1_MSG_FEE_EXCEEDED'),

  // consumeMessageFromL2(uint256 fromAddress, uint256[] payload) returns (bytes32)
  label('consumeMessageFromL2'),
  ...nonPayable,
  ...minArgs(2),
  ...readArray(1),
  ...arg(0),
  ...store(BUF),
  'CALLER',
  ...store(BUF + 0x20),
  ...load(LEN),
  ...store(BUF + 0x40),
  ...copyArray(BUF + 0x60),
  ...sizeWithArray(0x60),
  push(BUF),
  'KECCAK256', // [hash]
  'DUP1',
  ...mappingSlot(MESSAGING_SLOTS.l2ToL1Messages), // [hash, slot]
  'DUP1',
  'SLOAD', // [hash, slot, count]
  'DUP1',
  'ISZERO',
  pushLabel('invalidMessage'),
  'JUMPI',
  push(1),
  'SWAP1',
  'SUB',
  'SWAP1',
  'SSTORE', // [hash]
  // ConsumedMessageToL1: data (payload) = [0x20, length, ...payload]
  push(0x20),
  ...store(BUF),
  ...load(LEN),
  ...store(BUF + 0x20),
  ...copyArray(BUF + 0x40),
  'CALLER',
  ...arg(0),
  push(MESSAGING_TOPICS.ConsumedMessageToL1),
  ...sizeWithArray(0x40),
  push(BUF),
  'LOG3',
  ...returnWord,
  label('invalidMessage'),
  ...revertWith('INVALID_MESSAGE_TO_CONSUME'),

  // mockSendMessageFromL2(uint256 fromAddress, uint256 toAddress, uint256[] payload)
  label('mockSendMessageFromL2'),
  ...nonPayable,
  ...minArgs(3),
  ...readArray(2),
  ...arg(0),
  ...store(BUF),
  ...arg(1),
  ...store(BUF + 0x20),
  ...load(LEN),
  ...store(BUF + 0x40),
  ...copyArray(BUF + 0x60),
  ...sizeWithArray(0x60),
  push(BUF),
  'KECCAK256',
  ...mappingSlot(MESSAGING_SLOTS.l2ToL1Messages), // [slot]
  'DUP1',
  'SLOAD',
  push(1),
  'ADD',
  'SWAP1',
  'SSTORE',
  // LogMessageToL1: data (payload) = [0x20, length, ...payload]
  push(0x20),
  ...store(BUF),
  ...load(LEN),
  ...store(BUF + 0x20),
  ...copyArray(BUF + 0x40),
  push(ADDRESS_MASK),
  ...arg(1),
  'AND',
  ...arg(0),
  push(MESSAGING_TOPICS.LogMessageToL1),
  ...sizeWithArray(0x40),
  push(BUF),
  'LOG3',
  'STOP',

  // mockConsumeMessageToL2(uint256 fromAddress, uint256 toAddress, uint256 selector, uint256[] payload, uint256 nonce)
  label('mockConsumeMessageToL2'),
  ...nonPayable,
  ...minArgs(5),
  ...readArray(3),
  ...arg(0),
  ...store(BUF),
  ...arg(1),
  ...store(BUF + 0x20),
  ...arg(4),
  ...store(BUF + 0x40),
  ...arg(2),
  ...store(BUF + 0x60),
  ...load(LEN),
  ...store(BUF + 0x80),
  ...copyArray(BUF + 0xa0),
  ...sizeWithArray(0xa0),
  push(BUF),
  'KECCAK256',
  ...mappingSlot(MESSAGING_SLOTS.l1ToL2Messages), // [slot]
  'DUP1',
  'SLOAD',
  'ISZERO',
  pushLabel('invalidMessage'),
  'JUMPI',
  push(0),
  'SWAP1',
  'SSTORE',
  // ConsumedMessageToL2: data (payload, nonce) = [0x40, nonce, length, ...payload]
  push(0x40),
  ...store(BUF),
  ...arg(4),
  ...store(BUF + 0x20),
  ...load(LEN),
  ...store(BUF + 0x40),
  ...copyArray(BUF + 0x60),
  ...arg(2),
  ...arg(1),
  push(ADDRESS_MASK),
  ...arg(0),
  'AND',
  push(MESSAGING_TOPICS.ConsumedMessageToL2),
  ...sizeWithArray(0x60),
  push(BUF),
  'LOG4',
  'STOP',

  // views
  label('l1ToL2Messages'),
  ...nonPayable,
  ...minArgs(1),
  ...arg(0),
  ...mappingSlot(MESSAGING_SLOTS.l1ToL2Messages),
  'SLOAD',
  ...returnWord,
  label('l2ToL1Messages'),
  ...nonPayable,
  ...minArgs(1),
  ...arg(0),
  ...mappingSlot(MESSAGING_SLOTS.l2ToL1Messages),
  'SLOAD',
  ...returnWord,
  label('l1ToL2MessageNonce'),
  ...nonPayable,
  push(MESSAGING_SLOTS.l1ToL2MessageNonce),
  'SLOAD',
  ...returnWord,
  label('getMaxL1MsgFee'),
  ...nonPayable,
  push(MAX_L1_MSG_FEE),
  ...returnWord,
];

/** The contract's runtime code. */
export const MESSAGING_RUNTIME: Uint8Array = assembleEvm(program);

/** The transaction data that deploys the contract (`0x…`). */
export const MESSAGING_CREATION_CODE = `0x${Buffer.from(creationCode(MESSAGING_RUNTIME)).toString('hex')}`;
