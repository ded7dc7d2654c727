import { bases } from 'multiformats/basics';
import { CID } from 'multiformats/cid';
import type { MultibaseDecoder } from 'multiformats/interface';

/** Every multibase multiformats knows, by prefix (`CID.parse` alone knows base58btc and base32). */
const decoders = new Map<string, MultibaseDecoder<string>>(
  Object.values(bases).map((b) => [b.prefix as string, b.decoder as MultibaseDecoder<string>]),
);
const decoder: MultibaseDecoder<string> = {
  decode(text: string) {
    const d = decoders.get(text[0] ?? '');
    if (d === undefined) throw new Error(`unknown multibase prefix ${JSON.stringify(text[0])}`);
    return d.decode(text);
  },
};

/**
 * The canonical text of a CID given in any multibase, bare or as `/ipfs/<cid>` (CIDv0 in
 * base58btc, CIDv1 in base32: how pins are recorded); undefined when the text is not one CID
 * (a path inside a DAG, or not a CID at all).
 *
 * @example
 * canonicalCid('/ipfs/QmZULk…') // 'QmZULk…'
 * canonicalCid('k2jmtxu…') // 'bafy…'
 */
export function canonicalCid(text: string): string | undefined {
  const bare = text.startsWith('/ipfs/') ? text.slice('/ipfs/'.length) : text;
  if (bare === '' || bare.includes('/')) return undefined;
  try {
    return CID.parse(bare, decoder).toString();
  } catch {
    return undefined;
  }
}
