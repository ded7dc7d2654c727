/** The genesis state: native classes declared, fee tokens, UDC and funded predeployed accounts. */
import { getStarkKey } from '@scure/starknet';
import { balanceSlot, totalSupplySlot } from '../contracts/erc20.js';
import { nativeClasses } from '../contracts/registry.js';
import { storageVar } from '../contracts/storage.js';
import { contractAddress } from '../crypto/contractAddress.js';
import { snKeccak } from '../crypto/hashes.js';
import { shortString, toHex } from '../felt.js';
import { ETH_ADDRESS, STRK_ADDRESS } from './processTransaction.js';
import { emptyDiff, type StateDiff } from './state.js';

/** Canonical Universal Deployer address. */
export const UDC_ADDRESS = 0x02ceed65a4bd731034c01113685c831b01c15d7d432f71afb1cf1634b53a2125n;

const CURVE_ORDER = 0x800000000000010ffffffffffffffffb781126dcae7b2321e66a241adc64d2fn;
const U128 = 2n ** 128n;

/** A predeployed account. */
export interface PredeployedAccount {
  address: bigint;
  privateKey: bigint;
  publicKey: bigint;
  initialBalance: bigint;
}

/** The deterministic key pair of predeployed account `index` for `seed`. */
export function predeployedKey(seed: number, index: number): { privateKey: bigint; publicKey: bigint } {
  const privateKey = (snKeccak(`nodegate-devchain:${seed}:${index}`) % (CURVE_ORDER - 1n)) + 1n;
  return { privateKey, publicKey: BigInt(getStarkKey(toHex(privateKey))) };
}

/** The predeployed accounts (OZ-style class, salt 20, deployer 0). */
export function predeployedAccounts(seed: number, count: number, initialBalance: bigint): PredeployedAccount[] {
  const out: PredeployedAccount[] = [];
  for (let i = 0; i < count; i++) {
    const { privateKey, publicKey } = predeployedKey(seed, i);
    const address = contractAddress(20n, nativeClasses.ozAccount.classHash, [publicKey], 0n);
    out.push({ address, privateKey, publicKey, initialBalance });
  }
  return out;
}

function setStorage(diff: StateDiff, addr: bigint, key: bigint, value: bigint): void {
  let m = diff.storage.get(addr);
  if (!m) {
    m = new Map();
    diff.storage.set(addr, m);
  }
  m.set(key, value);
}

/** The genesis state diff. */
export function genesisDiff(accounts: readonly PredeployedAccount[]): StateDiff {
  const diff = emptyDiff();
  for (const c of Object.values(nativeClasses))
    diff.declared.set(c.classHash, { sierra: c.sierra, compiledClassHash: c.classHash });
  const tokens: [bigint, string, string][] = [
    [STRK_ADDRESS, 'Starknet Token', 'STRK'],
    [ETH_ADDRESS, 'Ether', 'ETH'],
  ];
  for (const [addr, name, symbol] of tokens) {
    diff.deployed.set(addr, nativeClasses.erc20.classHash);
    setStorage(diff, addr, storageVar('ERC20_name'), shortString(name));
    setStorage(diff, addr, storageVar('ERC20_symbol'), shortString(symbol));
    setStorage(diff, addr, storageVar('ERC20_decimals'), 18n);
    let supply = 0n;
    for (const a of accounts) {
      setStorage(diff, addr, balanceSlot(a.address), a.initialBalance % U128);
      setStorage(diff, addr, balanceSlot(a.address) + 1n, a.initialBalance / U128);
      supply += a.initialBalance;
    }
    setStorage(diff, addr, totalSupplySlot, supply % U128);
    setStorage(diff, addr, totalSupplySlot + 1n, supply / U128);
  }
  diff.deployed.set(UDC_ADDRESS, nativeClasses.udc.classHash);
  for (const a of accounts) {
    diff.deployed.set(a.address, nativeClasses.ozAccount.classHash);
    setStorage(diff, a.address, storageVar('Account_public_key'), a.publicKey);
  }
  return diff;
}
