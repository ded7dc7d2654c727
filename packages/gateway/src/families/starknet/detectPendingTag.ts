import type { HttpUpstream } from '../../upstream/createHttpUpstream.js';
import type { PendingTag } from './createStarknetFamily.js';

/**
 * Asks the upstream for its spec version: 0.9 and later call the pre-confirmed block
 * `pre_confirmed`, older ones `pending`. An upstream that cannot be asked is taken as current.
 */
export async function detectPendingTag(
  upstream: HttpUpstream | undefined,
): Promise<{ tag: PendingTag; specVersion?: string }> {
  if (!upstream) return { tag: 'pre_confirmed' };
  try {
    const answer = await upstream.call({ jsonrpc: '2.0', id: 0, method: 'starknet_specVersion', params: [] });
    const result = 'result' in answer ? answer.result : undefined;
    const version = typeof result === 'string' ? result : undefined;
    const m = version ? /^(\d+)\.(\d+)/.exec(version) : null;
    if (!m) return { tag: 'pre_confirmed' };
    const older = Number(m[1]) === 0 && Number(m[2]) < 9;
    return { tag: older ? 'pending' : 'pre_confirmed', specVersion: version! };
  } catch {
    return { tag: 'pre_confirmed' };
  }
}
