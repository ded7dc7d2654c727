import { byteArray, shortString } from 'starknet';
import type { NetworkConfig } from '../config';
import { chainCall, providerFor } from '../lib/chain';
import { confirmOrReject } from '../lib/dialogs';
import { invalidParam } from '../lib/errors';
import { optInt, type Params, reqAddress } from '../lib/params';
import type { RequestContext } from '../methods';
import { updateState } from '../state/store';
import { watchAsset } from '../state/transitions';

/** Reads a token's name or symbol: a short string (one felt) or a ByteArray. */
function text(felts: readonly string[]): string {
  if (felts.length === 1) return shortString.decodeShortString(felts[0]!);
  const [count, ...rest] = felts;
  const n = Number(BigInt(count!));
  return byteArray.stringFromByteArray({
    data: rest.slice(0, n),
    pending_word: rest[n]!,
    pending_word_len: Number(BigInt(rest[n + 1]!)),
  });
}

/**
 * stk_watchAsset: adds an ERC20 token to the wallet's watched tokens after checking on the node that the address is
 * an ERC20 (it answers `name`, `symbol`, `decimals` and `balanceOf`) and that the caller's details, when given, match
 * the contract's; a dialog shows the token.
 *
 * @param p - `{tokenAddress, tokenName?, tokenSymbol?, tokenDecimals?}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns True once stored.
 */
export async function stk_watchAsset(p: Params, net: NetworkConfig, ctx: RequestContext): Promise<boolean> {
  const address = reqAddress(p, 'tokenAddress');
  const read = async (entrypoint: string, calldata: string[] = []) => {
    try {
      return await providerFor(net).callContract({ contractAddress: address, entrypoint, calldata }, 'pre_confirmed');
    } catch (e) {
      const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
      throw invalidParam(
        'tokenAddress',
        `${address} is not an ERC20 token on ${net.name}: ${entrypoint}() failed (${reason})`,
      );
    }
  };
  const [name, symbol, decimals] = await chainCall(net, `read the token at ${address}`, async () => {
    const [n, s, d] = await Promise.all([read('name'), read('symbol'), read('decimals'), read('balanceOf', ['0x1'])]);
    return [text(n), text(s), Number(BigInt(d[0] ?? '0'))] as const;
  });
  const given = {
    name: typeof p.tokenName === 'string' ? p.tokenName : undefined,
    symbol: typeof p.tokenSymbol === 'string' ? p.tokenSymbol : undefined,
    decimals: p.tokenDecimals === undefined ? undefined : optInt(p, 'tokenDecimals', 18, 0, 255),
  };
  if (given.symbol !== undefined && given.symbol !== symbol) {
    throw invalidParam(
      'tokenSymbol',
      `is ${JSON.stringify(given.symbol)} but the contract says ${JSON.stringify(symbol)}`,
    );
  }
  if (given.decimals !== undefined && given.decimals !== decimals) {
    throw invalidParam('tokenDecimals', `is ${given.decimals} but the contract says ${decimals}`);
  }
  await confirmOrReject('Add token', [
    ['Requested by', ctx.origin],
    ['Network', net.name],
    ['Token', `${name} (${symbol})`],
    ['Decimals', String(decimals)],
    ['Address', address],
  ]);
  await updateState((s) => watchAsset(s, { chainId: net.chainId, address, name, symbol, decimals }));
  return true;
}
