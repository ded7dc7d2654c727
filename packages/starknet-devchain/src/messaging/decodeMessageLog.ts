/** The message a `LogMessageToL2` event of the messaging contract carries. */
import { FIELD_PRIME } from '../felt.js';
import type { L1Log } from './l1/createL1Client.js';
import type { MessageFromL1 } from './l1HandlerTransaction.js';
import { MESSAGING_TOPICS } from './l1/messagingContract.js';

/**
 * Decodes a `LogMessageToL2(address indexed from, uint256 indexed to, uint256 indexed selector, uint256[] payload,
 * uint256 nonce, uint256 fee)` log; undefined when it is not one, is malformed, or carries a value that is no felt
 * (such a message can never be handled on L2).
 *
 * @example
 * const m = decodeMessageLog(log); // { from, to, selector, payload, nonce, paidFee }
 */
export function decodeMessageLog(log: L1Log): MessageFromL1 | undefined {
  if (log.topics.length !== 4 || BigInt(log.topics[0]!) !== MESSAGING_TOPICS.LogMessageToL2) return undefined;
  const data = log.data.startsWith('0x') ? log.data.slice(2) : log.data;
  if (data.length % 64 !== 0) return undefined;
  const words: bigint[] = [];
  for (let i = 0; i < data.length; i += 64) words.push(BigInt(`0x${data.slice(i, i + 64)}`));
  const [offset, nonce, paidFee] = words;
  if (offset === undefined || nonce === undefined || paidFee === undefined || offset % 32n !== 0n) return undefined;
  const at = Number(offset / 32n);
  const length = words[at];
  if (length === undefined || at + 1 + Number(length) > words.length) return undefined;
  const payload = words.slice(at + 1, at + 1 + Number(length));
  const [from, to, selector] = log.topics.slice(1).map((t) => BigInt(t)) as [bigint, bigint, bigint];
  if ([to, selector, nonce, paidFee, ...payload].some((v) => v >= FIELD_PRIME)) return undefined;
  return { from, to, selector, payload, nonce, paidFee };
}
