/**
 * Reads a byte stream ahead of its consumer, holding at most about `maxBytes`: the producer (a
 * network upload) keeps flowing while the consumer (the importer, which takes blocks in batches)
 * is busy, and still stops when the buffer is full, so backpressure reaches the client.
 */
export async function* readAhead(source: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  const queue: Uint8Array[] = [];
  let buffered = 0;
  let done = false;
  let failure: { error: unknown } | undefined;
  let wakeConsumer: (() => void) | undefined;
  let wakeProducer: (() => void) | undefined;
  let stopped = false;
  const it = source[Symbol.asyncIterator]();

  const pump = async () => {
    try {
      while (!stopped) {
        if (buffered >= maxBytes) {
          await new Promise<void>((resolve) => {
            wakeProducer = resolve;
          });
          continue;
        }
        const next = await it.next();
        if (next.done === true) break;
        queue.push(next.value);
        buffered += next.value.byteLength;
        wakeConsumer?.();
      }
    } catch (error) {
      failure = { error };
    } finally {
      done = true;
      wakeConsumer?.();
    }
  };
  const pumping = pump();

  try {
    while (true) {
      const chunk = queue.shift();
      if (chunk !== undefined) {
        buffered -= chunk.byteLength;
        const wake = wakeProducer;
        wakeProducer = undefined;
        wake?.();
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure.error;
      if (done) return;
      await new Promise<void>((resolve) => {
        wakeConsumer = resolve;
      });
      wakeConsumer = undefined;
    }
  } finally {
    stopped = true;
    const wake = wakeProducer;
    wakeProducer = undefined;
    wake?.();
    await pumping;
    if (!done) await it.return?.();
  }
}
