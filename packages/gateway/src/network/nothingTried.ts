import type { Member } from './members/createMember.js';

/**
 * Why no upstream of `list` was asked at all: all on another chain than the network's, or all
 * open.
 *
 * @example
 * upstreamUnavailable('mainnet', undefined, nothingTried(list, settings.chainId));
 */
export function nothingTried(list: readonly Member[], chainId: string | undefined): string {
  return list.length > 0 && list.every((m) => m.wrongChain)
    ? `no upstream is on chain ${chainId}`
    : 'every upstream is failing (circuit open)';
}
