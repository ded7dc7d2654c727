import { GatewayError } from '../../../errors/GatewayError.js';
import { RawJson } from '../../../jsonrpc/RawJson.js';
import { hex } from './logsQuery.js';

/**
 * The refusal of a log range wider than the key may ask for (`maxLogsBlockRange`), in Infura's
 * shape: -32005, the range to retry with in the message and in `data: { from, to }`.
 *
 * @example
 * throw rangeTooLarge(0, 199_999, 10_000); // "… retry with the range [0x0, 0x270f]"
 */
export function rangeTooLarge(from: number, to: number, cap: number): GatewayError {
  const retryTo = from + cap - 1;
  return new GatewayError(
    'LOGS_RANGE_TOO_LARGE',
    `block range too large: eth_getLogs over ${to - from + 1} blocks, at most ${cap} allowed; retry with the range [${hex(from)}, ${hex(retryTo)}]`,
    { data: { from: hex(from), to: hex(retryTo), limit: cap } },
  );
}

/**
 * The refusal of a log answer holding more than `maxLogsResults` logs, in Infura's wording and
 * shape: -32005 `query returned more than N results. Try with this block range [from, to].`,
 * `data: { from, to }` (a range whose logs fit).
 *
 * @example
 * throw tooManyResults(100, 180, 10_000);
 */
export function tooManyResults(from: number, fitTo: number, cap: number): GatewayError {
  return new GatewayError(
    'LOGS_TOO_MANY_RESULTS',
    `query returned more than ${cap} results. Try with this block range [${hex(from)}, ${hex(fitTo)}].`,
    { data: { from: hex(from), to: hex(fitTo), limit: cap } },
  );
}

/** Bytes a log takes at least in an answer's text: an answer shorter than cap × this holds fewer. */
const MIN_LOG_BYTES = 200;

/**
 * The logs in an `eth_getLogs` result, or 0 when it surely holds no more than `cap`: a list is
 * counted, raw text by its one `"logIndex"` per log (never parsed; text shorter than `cap`
 * logs could be is not read at all).
 *
 * @example
 * countLogs(new RawJson(text), 10_000); // 0 for a short answer, else its logs
 */
export function countLogs(result: unknown, cap: number): number {
  if (Array.isArray(result)) return result.length;
  if (!(result instanceof RawJson)) return 0;
  if ((result.bytes?.length ?? result.text.length) < cap * MIN_LOG_BYTES) return 0;
  const text = result.text;
  let n = 0;
  for (let at = text.indexOf('"logIndex"'); at >= 0; at = text.indexOf('"logIndex"', at + 10)) n += 1;
  return n;
}

/** A log's block number (its `blockNumber`), NaN when it has none. */
const blockOf = (log: unknown): number => {
  const b = (log as { blockNumber?: unknown } | null)?.blockNumber;
  return typeof b === 'string' ? Number.parseInt(b, 16) : Number.NaN;
};

/** Answered sub-ranges in block order, each with its logs (in block and log order). */
export interface AnsweredRange {
  readonly from: number;
  readonly to: number;
  logs: readonly unknown[] | undefined;
}

/**
 * The last block of a range starting at `from` whose logs fit `cap`, from the sub-ranges
 * answered so far (in block order; the first unanswered one ends what is known): the block
 * before the one that holds the first log over the cap, at least `from`.
 *
 * @example
 * fitUpTo([{ from: 0, to: 9, logs }], 0, 2); // the block before the third log's
 */
export function fitUpTo(ranges: readonly AnsweredRange[], from: number, cap: number): number {
  let count = 0;
  let fit = from;
  for (const r of ranges) {
    if (r.logs === undefined) break;
    if (count + r.logs.length > cap) {
      const first = blockOf(r.logs[cap - count]);
      const end = Number.isNaN(first) ? r.from - 1 : Math.min(first - 1, r.to);
      return Math.max(from, end, fit);
    }
    count += r.logs.length;
    fit = r.to;
  }
  return Math.max(from, fit);
}
