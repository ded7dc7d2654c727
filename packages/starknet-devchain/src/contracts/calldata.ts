/** Small calldata readers used by the native contracts. */
import { ExecutionFailure } from './types.js';

/** A cursor over calldata felts that fails with a Cairo-like message when data runs out. */
export class CalldataReader {
  private pos = 0;
  constructor(private readonly data: readonly bigint[]) {}

  felt(): bigint {
    const v = this.data[this.pos];
    if (v === undefined) throw new ExecutionFailure(`Failed to deserialize param #${this.pos + 1}`);
    this.pos += 1;
    return v;
  }

  u256(): bigint {
    const low = this.felt();
    const high = this.felt();
    if (low >= 2n ** 128n || high >= 2n ** 128n) throw new ExecutionFailure('Failed to deserialize u256');
    return (high << 128n) + low;
  }

  array(): bigint[] {
    const len = Number(this.felt());
    const out: bigint[] = [];
    for (let i = 0; i < len; i++) out.push(this.felt());
    return out;
  }

  bool(): boolean {
    return this.felt() !== 0n;
  }

  get remaining(): number {
    return this.data.length - this.pos;
  }

  rest(): bigint[] {
    const out = this.data.slice(this.pos);
    this.pos = this.data.length;
    return out;
  }
}

/** One call of an account multicall. */
export interface AccountCall {
  to: bigint;
  selector: bigint;
  calldata: bigint[];
}

/**
 * Decode an `__execute__` call array. Accepts the Cairo 1 layout
 * `[n, (to, selector, len, ...data)*]` and the legacy Cairo 0 layout
 * `[n, (to, selector, offset, len)*, total, ...data]`.
 */
export function decodeCalls(calldata: readonly bigint[]): AccountCall[] {
  const cairo1 = tryCairo1(calldata);
  if (cairo1) return cairo1;
  const cairo0 = tryCairo0(calldata);
  if (cairo0) return cairo0;
  throw new ExecutionFailure('Failed to deserialize param #1: invalid call array');
}

function tryCairo1(data: readonly bigint[]): AccountCall[] | null {
  const n = data[0];
  if (n === undefined || n > 10_000n) return null;
  let pos = 1;
  const calls: AccountCall[] = [];
  for (let i = 0; i < Number(n); i++) {
    const to = data[pos];
    const sel = data[pos + 1];
    const len = data[pos + 2];
    if (to === undefined || sel === undefined || len === undefined) return null;
    const end = pos + 3 + Number(len);
    if (len > BigInt(data.length) || end > data.length) return null;
    calls.push({ to, selector: sel, calldata: data.slice(pos + 3, end) });
    pos = end;
  }
  return pos === data.length ? calls : null;
}

function tryCairo0(data: readonly bigint[]): AccountCall[] | null {
  const n = data[0];
  if (n === undefined || n > 10_000n) return null;
  const headerEnd = 1 + 4 * Number(n);
  const total = data[headerEnd];
  if (total === undefined || headerEnd + 1 + Number(total) !== data.length) return null;
  const body = data.slice(headerEnd + 1);
  const calls: AccountCall[] = [];
  for (let i = 0; i < Number(n); i++) {
    const base = 1 + 4 * i;
    const to = data[base]!;
    const sel = data[base + 1]!;
    const offset = Number(data[base + 2]!);
    const len = Number(data[base + 3]!);
    if (offset + len > body.length) return null;
    calls.push({ to, selector: sel, calldata: body.slice(offset, offset + len) });
  }
  return calls;
}
