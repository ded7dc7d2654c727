import type { UpstreamAnswer } from './callUpstream.js';
import { IpfsCommandError } from './IpfsCommandError.js';

/**
 * Returns the answer's body when the upstream answered 200 without a stream error; otherwise
 * throws an {@link IpfsCommandError} carrying the upstream's status and message (Kubo JSON or text).
 */
export function expectUpstreamOk(answer: UpstreamAnswer): Buffer {
  if (answer.status === 200 && answer.streamError === undefined) return answer.body;
  if (answer.streamError !== undefined) throw new IpfsCommandError(500, answer.streamError, 0);
  const text = answer.body.toString('utf8').trim();
  let message = text;
  let code: 0 | 1 = answer.status < 500 ? 1 : 0;
  try {
    const parsed = JSON.parse(text) as { Message?: unknown; Code?: unknown };
    if (typeof parsed.Message === 'string') message = parsed.Message;
    if (parsed.Code === 0 || parsed.Code === 1) code = parsed.Code;
  } catch {
    // a text answer (Kubo's 400 for request errors): keep it as it is
  }
  throw new IpfsCommandError(answer.status, message || `upstream answered ${answer.status}`, code);
}
