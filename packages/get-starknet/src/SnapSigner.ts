import {
  type Call,
  type DeclareSignerDetails,
  type DeployAccountSignerDetails,
  type InvocationsSignerDetails,
  type Signature,
  SignerInterface,
  type TypedData,
} from 'starknet';
import { SN_SEPOLIA } from './constants.js';
import type { SnapClient } from './createSnapClient.js';

/** Options of {@link SnapSigner}. */
export interface SnapSignerOptions {
  /** The snap client (for example `createNodegateWallet().snap`). */
  snap: SnapClient;
  /** The account whose key signs. */
  address: string;
  /** The chain (default SN_SEPOLIA). */
  chainId?: string;
}

/**
 * A starknet.js `SignerInterface` whose key lives in the nodegate snap: every signature is made by the snap
 * after its confirmation dialog, so `new Account({ provider, address, signer })` works with MetaMask.
 */
export class SnapSigner extends SignerInterface {
  readonly #snap: SnapClient;
  readonly #address: string;
  readonly #chainId: string;

  constructor(options: SnapSignerOptions) {
    super();
    this.#snap = options.snap;
    this.#address = options.address;
    this.#chainId = options.chainId ?? SN_SEPOLIA;
  }

  /** The account's public key (`stk_extractPublicKey`). */
  getPubKey(): Promise<string> {
    return this.#snap.invoke<string>('stk_extractPublicKey', { chainId: this.#chainId, userAddress: this.#address });
  }

  /** Signs SNIP-12 typed data (`stk_signMessage`). */
  signMessage(typedData: TypedData, accountAddress: string): Promise<Signature> {
    return this.#snap.invoke<string[]>('stk_signMessage', {
      chainId: this.#chainId,
      typedDataMessage: JSON.stringify(typedData),
      signerAddress: accountAddress || this.#address,
    });
  }

  /** Signs an invoke transaction (`stk_signTransaction`). */
  signTransaction(transactions: Call[], details: InvocationsSignerDetails): Promise<Signature> {
    return this.#snap.invoke<string[]>('stk_signTransaction', {
      chainId: this.#chainId,
      signerAddress: details.walletAddress || this.#address,
      transactions,
      details,
    });
  }

  /** Signs a deploy-account transaction (`stk_signDeployAccountTransaction`). */
  signDeployAccountTransaction(details: DeployAccountSignerDetails): Promise<Signature> {
    return this.#snap.invoke<string[]>('stk_signDeployAccountTransaction', {
      chainId: this.#chainId,
      signerAddress: String(details.contractAddress || this.#address),
      details,
    });
  }

  /** Signs a declare transaction (`stk_signDeclareTransaction`). */
  signDeclareTransaction(details: DeclareSignerDetails): Promise<Signature> {
    return this.#snap.invoke<string[]>('stk_signDeclareTransaction', {
      chainId: this.#chainId,
      signerAddress: details.senderAddress || this.#address,
      details,
    });
  }
}
