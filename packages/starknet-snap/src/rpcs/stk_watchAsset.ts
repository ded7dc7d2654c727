import { byteArray, RpcError, shortString } from 'starknet';
import type { NetworkConfig } from '../config';
import { chainError, providerFor } from '../lib/chain';
import { confirmOrReject } from '../lib/dialogs';
import { invalidParam, SnapErrorCode, snapError } from '../lib/errors';
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

/** Node answers that mean the contract is not a token: nothing deployed (20), no such function (21), it failed (40). */
const NOT_A_TOKEN = new Set([20, 21, 40]);

/**
 * stk_watchAsset: adds an ERC20 token to the wallet's watched tokens after checking on the node that the address is
 * an ERC20 (it answers `name`, `symbol`, `decimals` and `balanceOf`; otherwise `NotErc20`, -32008, which the
 * connector answers as the wallet API's NOT_ERC20) and that the caller's details, when given, match the contract's
 * (-32602 naming the detail); a dialog shows the token. A node that cannot be reached is reported as such, not as a
 * contract that is not a token.
 *
 * @param p - `{tokenAddress, tokenName?, tokenSymbol?, tokenDecimals?}`.
 * @param net - The network.
 * @param ctx - The request's origin, shown in the dialog.
 * @returns True once stored.
 */
export async function stk_watchAsset(p: Params, net: NetworkConfig, ctx: RequestContext): Promise<boolean> {
  const address = reqAddress(p, 'tokenAddress');
  const notErc20 = (why: string) =>
    snapError(SnapErrorCode.NotErc20, `${address} is not an ERC20 token on ${net.name}: ${why}`, {
      tokenAddress: address,
    });
  const read = async (entrypoint: string, calldata: string[] = []) => {
    try {
      return await providerFor(net).callContract({ contractAddress: address, entrypoint, calldata }, 'pre_confirmed');
    } catch (e) {
      if (e instanceof RpcError && NOT_A_TOKEN.has(e.code)) {
        throw notErc20(`${entrypoint}() failed (${e.message.split('\n')[0]})`);
      }
      throw chainError(net, `read ${entrypoint}() of the token at ${address}`, e);
    }
  };
  const [n, s, d] = await Promise.all([read('name'), read('symbol'), read('decimals'), read('balanceOf', ['0x1'])]);
  let name: string;
  let symbol: string;
  try {
    name = text(n);
    symbol = text(s);
  } catch {
    throw notErc20('its name() or symbol() is not a string');
  }
  const decimals = Number(BigInt(d[0] ?? '0'));
  if (d.length !== 1 || decimals > 255) throw notErc20('its decimals() is not a u8');
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
