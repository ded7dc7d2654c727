/** Where a new forked chain starts: the origin's chain id and fork block, asked once at start. */
import type { ForkPoint } from './ForkOrigin.js';

/**
 * Asks the Starknet node at `url` for its chain id and block `blockNumber` (default: its latest): the fork point a
 * new forked chain builds on. Fails with a message naming what is wrong (the URL, the block).
 *
 * @example
 * const { point, chainId } = await resolveForkPoint('http://127.0.0.1:5050/rpc', 12);
 */
export async function resolveForkPoint(
  url: string,
  blockNumber?: number,
): Promise<{ point: ForkPoint; chainId: bigint }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--fork-network: ${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error('--fork-network: expected an http(s) URL');
  const call = async (method: string, params: unknown) => {
    let body: { result?: unknown; error?: { message?: string } };
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal: AbortSignal.timeout(30_000),
      });
      body = (await res.json()) as typeof body;
    } catch {
      throw new Error(`the fork origin ${parsed.host} does not answer ${method}`);
    }
    if (body.error) throw new Error(`the fork origin answered ${method} with: ${body.error.message ?? 'an error'}`);
    return body.result;
  };
  const chainId = BigInt((await call('starknet_chainId', [])) as string);
  const block = (await call('starknet_getBlockWithTxHashes', {
    block_id: blockNumber === undefined ? 'latest' : { block_number: blockNumber },
  })) as { block_number?: number; block_hash?: string; new_root?: string; timestamp?: number };
  if (typeof block.block_number !== 'number' || typeof block.block_hash !== 'string') {
    throw new Error('the fork origin answered a block without number or hash');
  }
  return {
    chainId,
    point: {
      url,
      blockNumber: block.block_number,
      blockHash: BigInt(block.block_hash),
      stateRoot: BigInt(block.new_root ?? '0x0'),
      timestamp: block.timestamp ?? 0,
    },
  };
}
