import type { NetworkConfig } from '../config';
import { accountAt, coinTypeNode } from '../lib/accounts';
import { deployedClassHash } from '../lib/chain';
import { normHex } from '../lib/keys';
import { optInt, type Params } from '../lib/params';
import { updateState } from '../state/store';
import { type AccountRecord, upsertAccount } from '../state/transitions';

/** One scanned account. */
export interface ScannedAccount {
  address: string;
  addressIndex: number;
  publicKey: string;
  /** Whether a contract is deployed at the address. */
  deployed: boolean;
  /** The deployed class hash, when deployed. */
  classHash?: string;
  /** Whether the deployed class is not the newest account class (stk_upgradeAccContract applies). */
  upgradeRequired: boolean;
}

/**
 * stk_recoverAccounts: scans indices from `startScanIndex` while fewer than `maxScanned` were scanned and fewer
 * than `maxMissed` undeployed accounts were met since the last deployed one; deployed accounts are stored as
 * initialized.
 *
 * @param p - `{startScanIndex?, maxScanned?, maxMissed?}`.
 * @param net - The network.
 * @returns Every scanned account.
 */
export async function stk_recoverAccounts(p: Params, net: NetworkConfig): Promise<ScannedAccount[]> {
  const start = optInt(p, 'startScanIndex', 0, 0, 2 ** 31 - 1);
  const maxScanned = optInt(p, 'maxScanned', 1, 1, 1000);
  const maxMissed = optInt(p, 'maxMissed', 1, 1, 1000);
  const node = await coinTypeNode();
  const out: ScannedAccount[] = [];
  let missed = 0;
  for (let i = start; i < start + maxScanned && missed < maxMissed; i++) {
    const acc = await accountAt(net, i, node);
    const classHash = await deployedClassHash(net, acc.address);
    if (classHash) missed = 0;
    else missed++;
    out.push({
      address: acc.address,
      addressIndex: i,
      publicKey: acc.publicKey,
      deployed: classHash !== undefined,
      ...(classHash ? { classHash: normHex(classHash) } : {}),
      upgradeRequired: classHash !== undefined && BigInt(classHash) !== BigInt(net.latestAccountClassHash),
    });
  }
  const found: AccountRecord[] = out
    .filter((a) => a.deployed)
    .map((a) => ({
      chainId: net.chainId,
      address: a.address,
      addressIndex: a.addressIndex,
      publicKey: a.publicKey,
      classHash: net.accountClassHash,
      status: 'initialized',
    }));
  if (found.length) await updateState((s) => found.reduce(upsertAccount, s));
  return out;
}
