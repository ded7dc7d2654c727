import { GatewayError } from '../../errors/GatewayError.js';

/** Kubo's and the embedded node's words for content they do not have (offline: at once). */
const MISSING = /not found|could not find|no link named|does not exist|no such file|unknown cid|cannot resolve/i;
/** Kubo's words for input it cannot take (a CID of an unknown codec, a path into data). */
const REFUSED = /unsupported|not supported|unknown codec|invalid|malformed/i;

/**
 * The answer a gateway gives when the IPFS node could not give it content:
 * - `answer`: the node answered an error; content it does not have is 404 (a non-recursive
 *   gateway knows its dataset: spec), content it refuses is 400 (naming the node's reason), any
 *   other failure 502;
 * - `timeout`: the content was not found before the gateway's deadline (`ipfs.gateways.timeoutMs`): 504 with `Retry-After`;
 * - `unreachable`: the node could not be reached: 502 (its URL is never shown).
 *
 * @example
 * contentError('answer', 500, '{"Message":"block was not found locally (offline)"}').httpStatus // 404
 */
export function contentError(kind: 'answer' | 'timeout' | 'unreachable', status = 502, body = ''): GatewayError {
  if (kind === 'timeout') {
    return new GatewayError('UPSTREAM_UNAVAILABLE', 'the content was not found within the gateway’s deadline', {
      httpStatus: 504,
      retryAfterSeconds: 30,
    });
  }
  if (kind === 'unreachable') {
    return new GatewayError('UPSTREAM_UNAVAILABLE', 'the IPFS node could not be reached', {
      httpStatus: 502,
      retryAfterSeconds: 5,
    });
  }
  const message = messageOf(body);
  if (MISSING.test(message)) return new GatewayError('NOT_FOUND', `not found: ${message}`, { httpStatus: 404 });
  if (status < 500 || REFUSED.test(message)) {
    return new GatewayError('INVALID_REQUEST', `the IPFS node refused it: ${message}`, { httpStatus: 400 });
  }
  return new GatewayError('UPSTREAM_UNAVAILABLE', `the IPFS node failed: ${message}`, { httpStatus: 502 });
}

/** Kubo's JSON error message (or the text itself), on one line, at most 300 characters. */
function messageOf(body: string): string {
  let text = body.trim();
  try {
    const parsed = JSON.parse(text) as { Message?: unknown };
    if (typeof parsed.Message === 'string') text = parsed.Message;
  } catch {
    // a text answer
  }
  return text.replace(/\s+/g, ' ').slice(0, 300) || 'no reason given';
}
