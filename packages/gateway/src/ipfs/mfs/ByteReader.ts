/**
 * Reads a byte stream in pieces of a chosen size (`take`), holding back at most one incoming
 * chunk: what a write streams through never sits in memory whole.
 *
 * @example
 * const reader = new ByteReader(chunks);
 * const leaf = await reader.take(262144); // fewer bytes only at the end of the stream
 */
export class ByteReader {
  private readonly iterator: AsyncIterator<Uint8Array>;
  private buffered: Uint8Array = new Uint8Array(0);
  private ended = false;
  /** Bytes handed out so far. */
  consumed = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Whether at least one more byte comes. */
  async hasMore(): Promise<boolean> {
    while (this.buffered.byteLength === 0 && !this.ended) {
      const next = await this.iterator.next();
      if (next.done) this.ended = true;
      else this.buffered = next.value;
    }
    return this.buffered.byteLength > 0;
  }

  /** The next `n` bytes (fewer only when the stream ends first; empty at its end). */
  async take(n: number): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let have = 0;
    while (have < n && (await this.hasMore())) {
      const want = n - have;
      const piece = this.buffered.subarray(0, want);
      this.buffered = this.buffered.subarray(piece.byteLength);
      parts.push(piece);
      have += piece.byteLength;
    }
    this.consumed += have;
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(have);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}

/** `source` cut after `limit` bytes (Kubo's `count`). */
export async function* limitBytes(source: AsyncIterable<Uint8Array>, limit: number): AsyncGenerator<Uint8Array> {
  let left = limit;
  if (left <= 0) return;
  for await (const chunk of source) {
    if (chunk.byteLength >= left) {
      yield chunk.subarray(0, left);
      return;
    }
    left -= chunk.byteLength;
    yield chunk;
  }
}
