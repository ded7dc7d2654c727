import type { ServerResponse } from 'node:http';
import type { CommandResult } from '../commands/types.js';
import { IpfsNodeError } from '../errors.js';
import { errorBody, streamErrorText } from './writeError.js';

/** How to end a response whose stream fails after the 200 headers were sent. */
export interface StreamErrorPolicy {
  /**
   * After setting the `X-Stream-Error` trailer, reset the connection instead of ending the
   * chunked body cleanly, so clients that ignore trailers see a failed (not a truncated) read.
   */
  resetOnStreamError: boolean;
}

const EXPOSED = 'X-Stream-Output, X-Chunked-Output, X-Content-Length';

function baseHeaders(): Record<string, string> {
  return {
    'Access-Control-Allow-Headers': EXPOSED,
    'Access-Control-Expose-Headers': EXPOSED,
    'Cache-Control': 'no-cache',
    Trailer: 'X-Stream-Error',
    Vary: 'Origin',
  };
}

/**
 * Writes a command result with Kubo's framing. Headers are held until the first value or chunk,
 * so a failure before any output still gets its 400/500 (the caller's `writeError`): this
 * function rethrows such failures and handles only those after streaming started.
 */
export async function writeResult(
  res: ServerResponse,
  result: CommandResult,
  policy: StreamErrorPolicy,
): Promise<void> {
  if (result.kind === 'value') {
    res.writeHead(200, { ...baseHeaders(), 'Content-Type': 'application/json' });
    res.end(`${JSON.stringify(result.value)}\n`);
    return;
  }
  if (result.kind === 'values') {
    await streamOut(
      res,
      lines(result.values),
      { ...baseHeaders(), 'Content-Type': 'application/json', 'X-Chunked-Output': '1' },
      true,
      policy,
    );
    return;
  }
  const headers: Record<string, string> = {
    ...baseHeaders(),
    'Content-Type': 'text/plain',
    'X-Stream-Output': '1',
  };
  if (result.length !== undefined) headers['X-Content-Length'] = result.length.toString();
  await streamOut(res, result.body, headers, false, policy);
}

async function* lines(values: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const v of values) yield `${JSON.stringify(v)}\n`;
}

async function streamOut(
  res: ServerResponse,
  source: AsyncIterable<Uint8Array | string>,
  headers: Record<string, string>,
  errorAsValue: boolean,
  policy: StreamErrorPolicy,
): Promise<void> {
  const it = source[Symbol.asyncIterator]();
  let next: IteratorResult<Uint8Array | string>;
  try {
    next = await it.next();
  } catch (err) {
    await it.return?.().catch(() => undefined);
    throw err;
  }
  res.writeHead(200, headers);
  res.flushHeaders();
  try {
    while (!next.done) {
      await write(res, next.value);
      next = await it.next();
    }
    res.end();
  } catch (thrown) {
    await it.return?.().catch(() => undefined);
    if (res.destroyed || res.writableEnded) return;
    const err = IpfsNodeError.from(thrown);
    if (errorAsValue) res.write(`${JSON.stringify(errorBody(err))}\n`);
    res.addTrailers({ 'X-Stream-Error': streamErrorText(err) });
    if (policy.resetOnStreamError) {
      // no terminating chunk: the client sees the connection reset mid-body
      res.destroy();
      return;
    }
    res.end();
  }
}

/** Writes one chunk, waiting for `drain` when the socket buffer is full (backpressure). */
function write(res: ServerResponse, chunk: Uint8Array | string): Promise<void> {
  if (res.destroyed) return Promise.reject(new DOMException('client went away', 'AbortError'));
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onDrain = () => {
      res.off('close', onClose);
      resolve();
    };
    const onClose = () => {
      res.off('drain', onDrain);
      reject(new DOMException('client went away', 'AbortError'));
    };
    res.once('drain', onDrain);
    res.once('close', onClose);
  });
}
