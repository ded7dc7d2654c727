import type { CID } from 'multiformats/cid';

/** An unsigned LEB128 varint (CAR's length prefixes). */
export function varint(n: number): Uint8Array {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** A CBOR major-type head (type in the top 3 bits, then the length/value). */
function cborHead(major: number, n: number): number[] {
  const m = major << 5;
  if (n < 24) return [m | n];
  if (n < 0x100) return [m | 24, n];
  if (n < 0x10000) return [m | 25, n >> 8, n & 0xff];
  return [m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

const text = (s: string) => [...cborHead(3, s.length), ...Buffer.from(s, 'ascii')];

/**
 * A CARv1 header, length-prefixed: the DAG-CBOR map `{roots: [root], version: 1}` (keys in
 * DAG-CBOR's canonical order, the root as tag 42 over the CID's bytes with their leading 0x00).
 *
 * @example
 * encodeCarHeader(CID.parse('bafkqaaa')) // varint(len) + a2 65 'roots' 81 d8 2a 45 00 01 55 00 00 67 'version' 01
 */
export function encodeCarHeader(root: CID): Uint8Array {
  const cid = root.bytes;
  const body = Uint8Array.from([
    ...cborHead(5, 2),
    ...text('roots'),
    ...cborHead(4, 1),
    0xd8,
    42,
    ...cborHead(2, cid.length + 1),
    0x00,
    ...cid,
    ...text('version'),
    ...cborHead(0, 1),
  ]);
  return concat([varint(body.length), body]);
}

/** One CAR section: varint(length of CID + block), the CID's bytes, the block. */
export function encodeCarBlock(cid: CID, block: Uint8Array): Uint8Array {
  return concat([varint(cid.bytes.length + block.length), cid.bytes, block]);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
