import { pino } from 'pino';
import { isSubscriptionNotification } from '../metrics/isSubscriptionNotification.js';
import type { UsageRecorder } from '../usage/UsageEvent.js';
import { redactText } from './redactText.js';

const MAX_METHOD_LENGTH = 64;

/**
 * A usage recorder that writes the access log, then forwards each event to `inner`: one JSON
 * line per finished request, batch item or IPFS command (subscription notifications are not
 * requests and are left out), e.g.
 * `{"level":"info","time":"…","msg":"request","requestId":"9f2c61d0-1b","network":"eth-devnet",
 * "transport":"http","method":"eth_call","status":200,"latencyMs":3,"key":"3111…","credits":80,
 * "upstream":"anvil","attempts":1,"cache":"MISS","bytesIn":120,"bytesOut":66}` (plus
 * `"failover":"partner"` when a failover partner answered, `"multiplexed":true` when the answer
 * came from an identical call another request had in flight, `"split":N` for a split range). The key appears only as its first four
 * characters; the method is shortened to 64 characters and redacted (it is the client's text).
 * Items of one batch share their request id. Lines go to `write`: the file or stdout the log
 * output chose ({@link createLogOutput}), which also flushes and closes it.
 *
 * @example
 * const usage = createAccessLogRecorder(createUsageRecorder({ store }), { write: output.openAccessLog(dataDir).write });
 * usage.record(event); // writes the access line, then records the event
 */
export function createAccessLogRecorder(
  inner: UsageRecorder,
  options: { write: (line: string) => void },
): UsageRecorder {
  const p = pino(
    {
      level: 'info',
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: options.write },
  );
  return {
    record(e) {
      if (!isSubscriptionNotification(e.method)) {
        const method = e.method.length > MAX_METHOD_LENGTH ? `${e.method.slice(0, MAX_METHOD_LENGTH)}…` : e.method;
        p.info(
          {
            requestId: e.requestId,
            network: e.network,
            transport: e.transport,
            method: redactText(method),
            status: e.status,
            latencyMs: e.latencyMs,
            key: `${e.key.slice(0, 4)}…`,
            errorCode: e.errorCode,
            refusal: e.refusal,
            credits: e.credits,
            upstream: e.upstream,
            failover: e.failover,
            attempts: e.attempts,
            cache: e.cache,
            multiplexed: e.multiplexed,
            split: e.split,
            bytesIn: Math.round(e.bytesIn),
            bytesOut: Math.round(e.bytesOut),
          },
          'request',
        );
      }
      inner.record(e);
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
  };
}
