/**
 * A small EVM assembler: opcodes by name, pushes of constants, and labels (a `JUMPDEST` where they stand, a `PUSH2`
 * of their offset where they are used). Enough to write the L1 messaging contract by hand, readably.
 */

/** The opcodes the L1 contracts use. */
const OPCODES = {
  STOP: 0x00,
  ADD: 0x01,
  SUB: 0x03,
  LT: 0x10,
  GT: 0x11,
  EQ: 0x14,
  ISZERO: 0x15,
  AND: 0x16,
  SHL: 0x1b,
  SHR: 0x1c,
  KECCAK256: 0x20,
  CALLER: 0x33,
  CALLVALUE: 0x34,
  CALLDATALOAD: 0x35,
  CALLDATASIZE: 0x36,
  CALLDATACOPY: 0x37,
  CODECOPY: 0x39,
  POP: 0x50,
  MLOAD: 0x51,
  MSTORE: 0x52,
  SLOAD: 0x54,
  SSTORE: 0x55,
  JUMP: 0x56,
  JUMPI: 0x57,
  JUMPDEST: 0x5b,
  DUP1: 0x80,
  DUP2: 0x81,
  DUP3: 0x82,
  SWAP1: 0x90,
  SWAP2: 0x91,
  LOG3: 0xa3,
  LOG4: 0xa4,
  RETURN: 0xf3,
  REVERT: 0xfd,
} as const;

/** An opcode name. */
export type Opcode = keyof typeof OPCODES;

/** One item of a program: an opcode, a constant pushed (smallest PUSHn), a label, or a push of a label's offset. */
export type EvmItem = Opcode | { push: bigint } | { label: string } | { pushLabel: string };

/** Push a constant. */
export const push = (value: bigint | number): EvmItem => ({ push: BigInt(value) });
/** Mark a jump destination. */
export const label = (name: string): EvmItem => ({ label: name });
/** Push a label's offset (for JUMP/JUMPI). */
export const pushLabel = (name: string): EvmItem => ({ pushLabel: name });

/**
 * Assembles a program into bytecode. Throws on an unknown label, a label defined twice, a negative constant or one
 * wider than 32 bytes.
 *
 * @example
 * assembleEvm([push(1), push(0), 'MSTORE', push(32), push(0), 'RETURN']); // returns 1
 */
export function assembleEvm(items: readonly EvmItem[]): Uint8Array {
  const out: number[] = [];
  const labels = new Map<string, number>();
  const fixups: Array<{ at: number; name: string }> = [];
  for (const item of items) {
    if (typeof item === 'string') {
      out.push(OPCODES[item]);
    } else if ('push' in item) {
      if (item.push < 0n || item.push >= 1n << 256n) throw new Error(`cannot push ${item.push}`);
      const hex = item.push.toString(16);
      const bytes = Math.max(1, Math.ceil(hex.length / 2));
      out.push(0x60 + bytes - 1);
      const padded = hex.padStart(bytes * 2, '0');
      for (let i = 0; i < bytes; i++) out.push(Number.parseInt(padded.slice(i * 2, i * 2 + 2), 16));
    } else if ('label' in item) {
      if (labels.has(item.label)) throw new Error(`label ${item.label} defined twice`);
      labels.set(item.label, out.length);
      out.push(OPCODES.JUMPDEST);
    } else {
      out.push(0x61); // PUSH2
      fixups.push({ at: out.length, name: item.pushLabel });
      out.push(0, 0);
    }
  }
  for (const { at, name } of fixups) {
    const offset = labels.get(name);
    if (offset === undefined) throw new Error(`unknown label ${name}`);
    if (offset > 0xffff) throw new Error('program too large');
    out[at] = offset >> 8;
    out[at + 1] = offset & 0xff;
  }
  return Uint8Array.from(out);
}

/**
 * The creation code of a contract whose runtime code is `runtime`: it copies the runtime code after itself into
 * memory and returns it (arguments appended to it are ignored).
 */
export function creationCode(runtime: Uint8Array): Uint8Array {
  const size = runtime.length;
  if (size > 0xffff) throw new Error('runtime too large');
  // PUSH2 size, PUSH2 <offset of runtime>, PUSH1 0, CODECOPY, PUSH2 size, PUSH1 0, RETURN
  const head = (offset: number) => [
    0x61,
    size >> 8,
    size & 0xff,
    0x61,
    offset >> 8,
    offset & 0xff,
    0x60,
    0x00,
    OPCODES.CODECOPY,
    0x61,
    size >> 8,
    size & 0xff,
    0x60,
    0x00,
    OPCODES.RETURN,
  ];
  const prefix = head(head(0).length);
  return Uint8Array.from([...prefix, ...runtime]);
}
