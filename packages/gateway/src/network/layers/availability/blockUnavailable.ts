import { GatewayError } from '../../../errors/GatewayError.js';
import type { Member } from '../../members/createMember.js';
import { describeWindow } from './describeWindow.js';

/**
 * The error a client gets when no upstream of `network` holds the state at `block`: -32000
 * `BLOCK_UNAVAILABLE`, naming the block and each upstream's window (its name and the blocks it
 * serves), never an upstream's own text.
 *
 * @example
 * throw blockUnavailable('mainnet', 5, members);
 * // "block 5 (0x5) is not available on network mainnet: no upstream holds its state (full-1: blocks 950-1077, the latest 128)"
 */
export function blockUnavailable(network: string, block: number, members: readonly Member[]): GatewayError {
  const windows = members
    .filter((m) => !m.wrongChain)
    .map((m) => ({ upstream: m.upstream.name, ...describeWindow(m) }));
  const said = windows
    .map((w) =>
      w.archive
        ? `${w.upstream}: every block`
        : w.oldest === undefined
          ? `${w.upstream}: not known`
          : `${w.upstream}: blocks ${w.oldest}-${w.head}${w.historyBlocks === undefined ? '' : `, the latest ${w.historyBlocks}`}`,
    )
    .join('; ');
  return new GatewayError(
    'BLOCK_UNAVAILABLE',
    `block ${block} (0x${block.toString(16)}) is not available on network ${network}: no upstream holds its state (${said}); ask for a more recent block`,
    { data: { network, block: `0x${block.toString(16)}`, reason: 'block-unavailable', windows } },
  );
}
