/** UnixFS metadata a tar entry carries (its header's mode and mtime). */
interface EntryMetadata {
  mode?: number;
  mtime?: { secs: bigint; nsecs: number };
}

/** One entry of a tar archive; files carry their size and a content stream. */
export type TarEntry =
  | ({ type: 'directory'; name: string } & EntryMetadata)
  | ({ type: 'file'; name: string; size: bigint; content: AsyncIterable<Uint8Array> } & EntryMetadata)
  | ({ type: 'symlink'; name: string; target: string } & EntryMetadata);

const BLOCK = 512;
const encoder = new TextEncoder();

/**
 * Encodes entries as a POSIX tar stream (ustar headers, PAX records for long names), pulling
 * each file's content as the output is consumed. Names are written as given: directories
 * without a trailing `/` (as Kubo's archives name them; the type flag says what they are).
 */
export async function* tarArchive(entries: AsyncIterable<TarEntry>): AsyncGenerator<Uint8Array> {
  for await (const entry of entries) {
    const name = entry.name;
    const size = entry.type === 'file' ? entry.size : 0n;
    const linkname = entry.type === 'symlink' ? entry.target : '';
    const longName = encoder.encode(name).byteLength > 100;
    const longLink = encoder.encode(linkname).byteLength > 100;
    if (longName || longLink) {
      let records = '';
      if (longName) records += paxRecord('path', name);
      if (longLink) records += paxRecord('linkpath', linkname);
      const body = encoder.encode(records);
      yield header({ name: 'PaxHeader', size: BigInt(body.byteLength), typeflag: 'x', mode: 0o644 });
      yield body;
      yield padding(BigInt(body.byteLength));
    }
    const typeflag = entry.type === 'directory' ? '5' : entry.type === 'symlink' ? '2' : '0';
    const mode = entry.type === 'symlink' ? 0o777 : (entry.mode ?? (entry.type === 'directory' ? 0o755 : 0o644));
    const mtime = entry.mtime !== undefined && entry.mtime.secs > 0n ? entry.mtime.secs : 0n;
    yield header({ name: truncate(name), size, typeflag, mode, mtime, linkname: truncate(linkname) });
    if (entry.type === 'file') {
      let written = 0n;
      for await (const chunk of entry.content) {
        written += BigInt(chunk.byteLength);
        yield chunk;
      }
      if (written !== size) throw new Error(`tar: ${entry.name}: expected ${size} bytes, read ${written}`);
      yield padding(size);
    }
  }
  yield new Uint8Array(BLOCK * 2);
}

function truncate(s: string): string {
  let out = s;
  while (encoder.encode(out).byteLength > 100) out = out.slice(0, -1);
  return out;
}

function paxRecord(key: string, value: string): string {
  const text = ` ${key}=${value}\n`;
  const t = encoder.encode(text).byteLength;
  let len = t + 1;
  while (String(len).length + t !== len) len = String(len).length + t;
  return `${len}${text}`;
}

function padding(size: bigint): Uint8Array {
  const rest = Number(size % BigInt(BLOCK));
  return new Uint8Array(rest === 0 ? 0 : BLOCK - rest);
}

function header(h: {
  name: string;
  size: bigint;
  typeflag: string;
  mode: number;
  mtime?: bigint;
  linkname?: string;
}): Uint8Array {
  const buf = new Uint8Array(BLOCK);
  const put = (offset: number, length: number, value: string) => {
    buf.set(encoder.encode(value).subarray(0, length), offset);
  };
  const octal = (offset: number, length: number, value: bigint | number) => {
    put(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
  };
  put(0, 100, h.name);
  octal(100, 8, h.mode);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, h.size);
  octal(136, 12, h.mtime !== undefined && h.mtime < 8n ** 11n ? h.mtime : 0n);
  put(148, 8, '        ');
  put(156, 1, h.typeflag);
  put(157, 100, h.linkname ?? '');
  put(257, 6, 'ustar\0');
  put(263, 2, '00');
  let sum = 0;
  for (const b of buf) sum += b;
  put(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return buf;
}
