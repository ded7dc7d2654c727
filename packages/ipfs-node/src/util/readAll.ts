/**
 * Reads a byte stream into one buffer, calling `onTooBig` (which should throw) as soon as more
 * than `limit` bytes arrive, so an oversized upload is rejected without being buffered.
 */
export async function readAll(
  source: AsyncIterable<Uint8Array>,
  limit: number,
  onTooBig: () => never,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > limit) onTooBig();
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
