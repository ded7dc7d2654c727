/**
 * A tiny contract written directly in EVM bytecode (no compiler needed in tests):
 * - constructor: slot 0 = 42 (a simple variable); balances[msg.sender] = 7, where
 *   `balances` is a mapping at slot 1, so the element lives at keccak256(pad32(key) ++ pad32(1)),
 *   computed by the contract itself with the KECCAK256 opcode, as Solidity does.
 * - any call with calldata (key, value): balances[key] = value, then emits LOG1(value) with
 *   topic {@link VALUE_SET_TOPIC}.
 */
export const VALUE_SET_TOPIC = `0x${'fe'.repeat(32)}` as const;

const OP = {
  STOP: '00',
  SHA3: '20',
  CALLER: '33',
  CALLDATALOAD: '35',
  CODECOPY: '39',
  MSTORE: '52',
  SSTORE: '55',
  PUSH1: '60',
  PUSH32: '7f',
  LOG1: 'a1',
  RETURN: 'f3',
} as const;

const push1 = (n: number) => OP.PUSH1 + n.toString(16).padStart(2, '0');

const runtime = [
  push1(0x20),
  OP.CALLDATALOAD, // value
  push1(0x00),
  OP.CALLDATALOAD, // key
  push1(0x00),
  OP.MSTORE, // mem[0..32] = key
  push1(0x01),
  push1(0x20),
  OP.MSTORE, // mem[32..64] = 1 (mapping slot)
  push1(0x40),
  push1(0x00),
  OP.SHA3, // keccak256(mem[0..64])
  OP.SSTORE, // sstore(hash, value)
  push1(0x20),
  OP.CALLDATALOAD,
  push1(0x00),
  OP.MSTORE, // mem[0..32] = value
  OP.PUSH32 + VALUE_SET_TOPIC.slice(2),
  push1(0x20),
  push1(0x00),
  OP.LOG1,
  OP.STOP,
].join('');

function initCode(runtimeOffset: number): string {
  const len = runtime.length / 2;
  return [
    push1(42),
    push1(0x00),
    OP.SSTORE, // slot 0 = 42
    OP.CALLER,
    push1(0x00),
    OP.MSTORE,
    push1(0x01),
    push1(0x20),
    OP.MSTORE,
    push1(7),
    push1(0x40),
    push1(0x00),
    OP.SHA3,
    OP.SSTORE, // balances[caller] = 7
    push1(len),
    push1(runtimeOffset),
    push1(0x00),
    OP.CODECOPY,
    push1(len),
    push1(0x00),
    OP.RETURN,
  ].join('');
}

const ctorLength = initCode(0).length / 2;

/** Deployment bytecode (constructor + runtime). */
export const STORAGE_CONTRACT_BYTECODE = `0x${initCode(ctorLength)}${runtime}` as const;
