import { bases } from 'multiformats/basics';
import type { CID } from 'multiformats/cid';
import type { CommandOptions } from '../commands/types.js';
import { IpfsNodeError } from '../errors.js';

/**
 * How CIDs are written in command output, from Kubo's global options: `cid-base` encodes CIDv1
 * in that multibase (name like `base36` or its one-letter prefix) and, unless it is base58btc,
 * upgrades CIDv0 to CIDv1; an explicit `upgrade-cidv0-in-output` decides the upgrade. Default: as is.
 */
export function cidFormatter(options: CommandOptions): (cid: CID) => string {
  const name = options.string('cid-base');
  const upgradeFlag = options.bool('upgrade-cidv0-in-output');
  if ((name === undefined || name === '') && !upgradeFlag) return (cid) => cid.toString();
  let encoder: (typeof bases)[keyof typeof bases] | undefined;
  if (name !== undefined && name !== '') {
    encoder = Object.values(bases).find((b) => b.name === name || b.prefix === name);
    if (encoder === undefined) throw new IpfsNodeError('command', `invalid cid-base: unknown multibase "${name}"`);
  }
  // an explicit upgrade-cidv0-in-output (deprecated in Kubo) overrides the automatic upgrade
  const upgrade = options.has('upgrade-cidv0-in-output')
    ? upgradeFlag
    : encoder !== undefined && encoder.name !== 'base58btc';
  return (cid) => {
    const out = upgrade && cid.version === 0 ? cid.toV1() : cid;
    if (encoder === undefined || out.version === 0) return out.toString();
    return out.toString(encoder.encoder);
  };
}
