/** The welcome state: a few fixed transactions a fresh chain starts with, so documented examples find them. */
import { sign } from '@scure/starknet';
import { hash } from 'starknet';
import type { Chain } from '../chain/Chain.js';
import { parseTransaction } from '../chain/parseTransaction.js';
import { STRK_ADDRESS } from '../chain/processTransaction.js';
import type { Tx } from '../chain/transaction.js';
import { transactionHash } from '../crypto/transactionHash.js';
import { selector } from '../crypto/hashes.js';
import { toHex } from '../felt.js';
import { syntheticClass } from '../testing/syntheticClass.js';
import { WELCOME_CLASS_TAG, WELCOME_TIMESTAMPS, WELCOME_TRANSFER_AMOUNT } from './welcomeConstants.js';


/** Fixed v3 resource bounds of the welcome transactions (what they pay is from the gas table). */
const BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x77359400' },
  l2_gas: { max_amount: '0x989680', max_price_per_unit: '0x77359400' },
  l1_data_gas: { max_amount: '0x1388', max_price_per_unit: '0x77359400' },
};

/** The hashes of the welcome state (hex felts), as {@link seedWelcome} made them. */
export interface WelcomeState {
  /** Block 1: an INVOKE of predeployed account 0 (nonce 0) sending 1 STRK to account 1. */
  readonly transferTransactionHash: string;
  /** Block 2: a DECLARE of the welcome class by account 0 (nonce 1). */
  readonly declareTransactionHash: string;
  readonly classHash: string;
  readonly blockHashes: readonly string[];
}

/**
 * Seeds a chain that was just created at genesis ({@link WELCOME_TIMESTAMPS}.genesis) with the
 * welcome state: block 1 holds a STRK transfer from predeployed account 0 to account 1, block 2
 * the DECLARE of a small class (`get_answer`, made from {@link WELCOME_CLASS_TAG}). Every field is
 * fixed (nonces, resource bounds, tip, timestamps) and stark signatures are deterministic
 * (RFC 6979), so the transaction, class and block hashes are the same on every machine for the
 * same seed and chain id. The transactions are accepted as any client's are (validated, charged).
 *
 * @example
 * const chain = new Chain({ ...config, genesisTimestamp: WELCOME_TIMESTAMPS.genesis });
 * chain.initGenesis();
 * const welcome = seedWelcome(chain);
 */
export function seedWelcome(chain: Chain): WelcomeState {
  if (chain.latestNumber !== 0) throw new Error('the welcome state is seeded on a chain at genesis only');
  const [from, to] = chain.accounts;
  if (!from || !to) throw new Error('the welcome state needs two predeployed accounts');
  const v3 = {
    version: '0x3',
    resource_bounds: BOUNDS,
    tip: '0x0',
    paymaster_data: [],
    nonce_data_availability_mode: 'L1',
    fee_data_availability_mode: 'L1',
    account_deployment_data: [],
  };
  const transfer = signed(chain, from.privateKey, {
    type: 'INVOKE',
    sender_address: toHex(from.address),
    calldata: [
      '0x1',
      toHex(STRK_ADDRESS),
      toHex(selector('transfer')),
      '0x3',
      toHex(to.address),
      toHex(WELCOME_TRANSFER_AMOUNT),
      '0x0',
    ],
    nonce: '0x0',
    ...v3,
  });
  chain.submit(transfer, false);
  const first = chain.mine(WELCOME_TIMESTAMPS.transfer);
  const { contract } = syntheticClass(WELCOME_CLASS_TAG);
  const declare = signed(chain, from.privateKey, {
    type: 'DECLARE',
    sender_address: toHex(from.address),
    // no CASM is made here (the class runs on the Sierra VM): the declarer's value is kept as given
    compiled_class_hash: '0x1',
    contract_class: { ...contract, abi: hash.formatSpaces(JSON.stringify(contract.abi)) },
    nonce: '0x1',
    ...v3,
  });
  const declared = chain.submit(declare, false);
  const second = chain.mine(WELCOME_TIMESTAMPS.declare);
  return {
    transferTransactionHash: toHex(first.txs[0]!.hash),
    declareTransactionHash: toHex(declared.hash),
    classHash: toHex(declared.tx.classHash!),
    blockHashes: [toHex(chain.blockByNumber(0)!.hash), toHex(first.hash), toHex(second.hash)],
  };
}

/** The transaction `raw` describes, signed by `privateKey` over its hash on this chain. */
function signed(chain: Chain, privateKey: bigint, raw: Record<string, unknown>): Tx {
  const tx = parseTransaction(raw);
  const s = sign(toHex(transactionHash(tx, chain.config.chainId)), toHex(privateKey));
  tx.signature = [s.r, s.s];
  return tx;
}
