/**
 * A synchronous JSON-RPC client: the chain executes transactions synchronously and reads state through a
 * synchronous `StateReader`, so a forked chain's reads of the origin block the thread until the answer is there.
 * A worker thread makes the HTTP request; this thread waits on a shared flag (`Atomics.wait`) and takes the answer
 * from a message port (`receiveMessageOnPort`).
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** What the worker runs: a fetch per message, its answer posted back, then the flag raised. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
port.on('message', async ({ url, body, timeoutMs }) => {
  let answer;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    answer = { status: res.status, text: await res.text() };
  } catch (e) {
    answer = { error: e && e.name === 'TimeoutError' ? 'timeout' : 'unreachable' };
  }
  port.postMessage(answer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

/** The outcome of one call: the JSON-RPC answer's `result` or `error`, or why there was none. */
export type SyncRpcOutcome =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }
  | { failure: string };

/** A synchronous JSON-RPC client of one URL. */
export interface SyncRpcClient {
  /** Calls `method` and blocks until the answer (or the timeout). */
  call(method: string, params: unknown): SyncRpcOutcome;
  /** Ends the worker. */
  close(): void;
}

/**
 * A synchronous client of the JSON-RPC server at `url`; each call waits at most `timeoutMs` (default 30 s).
 *
 * @example
 * const origin = createSyncRpcClient('http://127.0.0.1:5050/rpc');
 * origin.call('starknet_blockNumber', {}); // { result: 12 }
 */
export function createSyncRpcClient(url: string, timeoutMs = 30_000): SyncRpcClient {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { flag: flag.buffer, port: port2 },
    transferList: [port2],
  });
  worker.unref();
  let id = 0;
  return {
    call(method, params) {
      Atomics.store(flag, 0, 0);
      port1.postMessage({ url, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), timeoutMs });
      // the worker's own timeout answers first; this one only guards against a worker that died
      if (Atomics.wait(flag, 0, 0, timeoutMs + 5_000) === 'timed-out') return { failure: 'timeout' };
      const message = receiveMessageOnPort(port1)?.message as
        | { status: number; text: string }
        | { error: string }
        | undefined;
      if (!message) return { failure: 'no answer' };
      if ('error' in message) return { failure: message.error };
      try {
        const body = JSON.parse(message.text) as { result?: unknown; error?: { code: number; message: string } };
        if (body.error) return { error: body.error };
        if ('result' in body) return { result: body.result };
      } catch {
        // not JSON
      }
      return { failure: `HTTP ${message.status}, not a JSON-RPC answer` };
    },
    close() {
      port1.close();
      void worker.terminate();
    },
  };
}
