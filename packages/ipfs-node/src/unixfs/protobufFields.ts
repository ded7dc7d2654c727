/* Minimal protobuf reading and writing for UnixFS `Data` messages (no schema, no copies). */

/** One field of a protobuf message. */
export interface Field {
  number: number;
  /** Where the field (its key) starts and ends. */
  start: number;
  end: number;
  /** Where its value starts (after the key, and a length for length-delimited fields). */
  valueStart: number;
}

/** The fields of a protobuf message in order; undefined when it does not parse. */
export function readFields(buf: Uint8Array): Field[] | undefined {
  const fields: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const key = readVarint(buf, at);
    if (key === undefined) return undefined;
    const number = Number(key.value >> 3n);
    const wire = Number(key.value & 7n);
    let valueStart = key.next;
    let end: number;
    if (wire === 0) {
      const v = readVarint(buf, valueStart);
      if (v === undefined) return undefined;
      end = v.next;
    } else if (wire === 2) {
      const len = readVarint(buf, valueStart);
      if (len === undefined) return undefined;
      valueStart = len.next;
      end = valueStart + Number(len.value);
    } else if (wire === 5) end = valueStart + 4;
    else if (wire === 1) end = valueStart + 8;
    else return undefined;
    if (end > buf.length) return undefined;
    fields.push({ number, start: at, end, valueStart });
    at = end;
  }
  return fields;
}

/** A UnixFS `UnixTime` message (`Seconds` int64, `FractionalNanoseconds` fixed32). */
export function readMtime(buf: Uint8Array): { secs: bigint; nsecs: number } | undefined {
  let secs = 0n;
  let nsecs = 0;
  for (const f of readFields(buf) ?? []) {
    if (f.number === 1) secs = BigInt.asIntN(64, readVarint(buf, f.valueStart)?.value ?? 0n);
    if (f.number === 2 && f.end - f.valueStart === 4) {
      const b = buf.subarray(f.valueStart, f.end);
      nsecs = (b[0]! | (b[1]! << 8) | (b[2]! << 16)) + b[3]! * 2 ** 24;
    }
  }
  return { secs, nsecs };
}

/** A varint at `at`, and where the next field starts. */
export function readVarint(buf: Uint8Array, at: number): { value: bigint; next: number } | undefined {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const byte = buf[i]!;
    value |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    shift += 7n;
  }
  return undefined;
}

/** A varint's bytes. */
export function varint(value: bigint): number[] {
  const out: number[] = [];
  let v = value;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
