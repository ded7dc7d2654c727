import { base32 } from 'multiformats/bases/base32';
import { base36 } from 'multiformats/bases/base36';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';

/** dag-pb, the codec a CIDv0 implies. */
export const DAG_PB = 0x70;
/** The identity multihash: the block is the digest itself. */
export const IDENTITY = 0x00;
const SHA2_256 = 0x12;
/** The longest CID text accepted (a sha2-512 CIDv1 in base58 is about 135 characters). */
const MAX_CID_TEXT = 200;

/**
 * A content root as a request names it, or undefined when it is not a CID: CIDv0 (`Qm…`) and
 * CIDv1 in base32 (`b…`, either case: hosts are case-insensitive), base58btc (`z…`) or base36
 * (`k…`, the subdomain form of long CIDs).
 *
 * @example
 * parseRootCid('bafkqaaa')?.toString() // 'bafkqaaa'
 * parseRootCid('not-a-cid')            // undefined
 */
export function parseRootCid(text: string): CID | undefined {
  if (text.length === 0 || text.length > MAX_CID_TEXT) return undefined;
  try {
    if (text.startsWith('Qm') && text.length === 46) return CID.parse(text, base58btc);
    switch (text[0]) {
      case 'b':
      case 'B':
        return CID.parse(text.toLowerCase(), base32);
      case 'z':
        return CID.parse(text, base58btc);
      case 'k':
      case 'K':
        return CID.parse(text.toLowerCase(), base36);
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/**
 * The text forms a pin of this content may be recorded under (pins keep canonical text: CIDv0
 * for a CIDv0, CIDv1 base32 otherwise): the CIDv1 base32 form and, for a dag-pb sha2-256 CID, the
 * CIDv0 form too.
 *
 * @example
 * pinForms(CID.parse('bafybei…')) // ['bafybei…', 'Qm…']
 */
export function pinForms(cid: CID): string[] {
  const v1 = cid.toV1().toString(base32);
  if (cid.code === DAG_PB && cid.multihash.code === SHA2_256) return [v1, cid.toV0().toString()];
  return [v1];
}

/**
 * The CID as one DNS label for the subdomain form: CIDv1 base32, or base36 when that is longer
 * than 63 characters; undefined when neither fits.
 *
 * @example
 * dnsLabelOf(CID.parse('QmbWq…')) // 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'
 */
export function dnsLabelOf(cid: CID): string | undefined {
  const v1 = cid.toV1();
  const b32 = v1.toString(base32);
  if (b32.length <= 63) return b32;
  const b36 = v1.toString(base36);
  return b36.length <= 63 ? b36 : undefined;
}

/** A key that is the same for every CID of one multihash (a block's identity in a store). */
export function blockKey(cid: CID): string {
  return Buffer.from(cid.multihash.bytes).toString('base64');
}
