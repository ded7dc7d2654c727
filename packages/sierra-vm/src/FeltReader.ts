import { SierraDecodeError } from './SierraDecodeError.js';

/** A cursor over a felt sequence, with the bounded reads the program serialization needs (internal). */
export class FeltReader {
  private pos = 0;

  constructor(private readonly felts: readonly bigint[]) {}

  /** Index of the next felt to read. */
  get offset(): number {
    return this.pos;
  }

  /** How many felts remain. */
  get remaining(): number {
    return this.felts.length - this.pos;
  }

  /** Reads one felt. */
  felt(): bigint {
    const value = this.felts[this.pos];
    if (value === undefined) throw new SierraDecodeError('unexpected end of felts', this.pos);
    this.pos += 1;
    return value;
  }

  /** Reads a felt that must be a `u64`, returned as a bigint. */
  u64(): bigint {
    const value = this.felt();
    if (value >= 2n ** 64n) throw new SierraDecodeError(`value ${value} does not fit in 64 bits`, this.pos - 1);
    return value;
  }

  /** Reads a felt that must be a u64 and a safe JavaScript integer (ids, indices). */
  int(): number {
    const value = this.u64();
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new SierraDecodeError(`value ${value} is too large for an id or index`, this.pos - 1);
    }
    return Number(value);
  }

  /** Reads a length, which cannot exceed the felts left (each element takes at least one felt). */
  length(): number {
    const at = this.pos;
    const size = this.int();
    if (size > this.remaining) throw new SierraDecodeError(`length ${size} exceeds the felts left`, at);
    return size;
  }

  /** Reads a length-prefixed vector of elements. */
  vec<T>(read: () => T): T[] {
    const size = this.length();
    const out: T[] = [];
    for (let i = 0; i < size; i++) out.push(read());
    return out;
  }
}
