import { ec } from 'starknet';
import type { NetworkConfig } from '../config';
import { findWalletAccount } from '../lib/accounts';
import { invalidParam } from '../lib/errors';
import { type Params, reqAddress } from '../lib/params';
import { parseTypedData } from '../lib/typedData';

const FELT = /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/;

function parseSignature(raw: unknown): [bigint, bigint] {
  let items: unknown = raw;
  if (typeof raw === 'string') {
    const s = raw.trim();
    if (s.startsWith('[')) {
      try {
        items = JSON.parse(s);
      } catch {
        throw invalidParam('signature', 'is not valid JSON');
      }
    } else items = s.split(',').map((x) => x.trim());
  }
  if (!Array.isArray(items) || items.length !== 2 || !items.every((x) => typeof x === 'string' && FELT.test(x))) {
    throw invalidParam('signature', 'must be "r,s" (or a JSON array of the two numbers)');
  }
  return [BigInt(items[0] as string), BigInt(items[1] as string)];
}

/**
 * stk_verifyMessage: checks a signature of the SNIP-12 hash of the typed data against the signer's re-derived key.
 * A signature that does not verify is `false`, not an error.
 *
 * @param p - `{typedDataMessage, signerAddress, signature}`.
 * @param net - The network.
 * @returns Whether the signature verifies.
 */
export async function stk_verifyMessage(p: Params, net: NetworkConfig): Promise<boolean> {
  const signer = reqAddress(p, 'signerAddress');
  const { hash } = parseTypedData(p, 'typedDataMessage', signer);
  const [r, s] = parseSignature(p.signature);
  const acc = await findWalletAccount(net, signer, 'signerAddress');
  const n = ec.starkCurve.CURVE.n;
  if (r <= 0n || s <= 0n || r >= n || s >= n) return false;
  try {
    return ec.starkCurve.verify(
      new ec.starkCurve.Signature(r, s),
      hash,
      ec.starkCurve.getPublicKey(acc.keys.privateKey),
    );
  } catch {
    // A signature the curve library cannot even decode does not verify.
    return false;
  }
}
