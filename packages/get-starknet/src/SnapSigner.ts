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
import type { NodegateWallet } from './createNodegateWallet.js';
import type { SnapClient } from './createSnapClient.js';

/**
 * Options of {@link SnapSigner}: the wallet (the signer then signs on the wallet's network, whichever it is at the
 * time), or a snap client and a fixed chain.
 */
export type SnapSignerOptions =
  | {
      /** The nodegate wallet: its snap signs, on its current network (`wallet.chainId`). */
      wallet: Pick<NodegateWallet, 'snap' | 'chainId'>;
      /** The account whose key signs. */
      address: string;
    }
  | {
      /** The snap client (for example `createNodegateWallet().snap`). */
      snap: SnapClient;
      /** The account whose key signs. */
      address: string;
      /** The chain, fixed (default SN_SEPOLIA). */
      chainId?: string;
    };

/**
 * A starknet.js `SignerInterface` whose key lives in the nodegate snap: every signature is made by the snap
 * after its confirmation dialog, so `new Account({ provider, address, signer })` works with MetaMask.
 *
 * @example
 * ```ts
 * const signer = new SnapSigner({ wallet, address }); // follows wallet_switchStarknetChain and the snap's network
 * const account = new Account({ provider, address, signer });
 * ```
 */
export class SnapSigner extends SignerInterface {
  readonly #snap: SnapClient;
  readonly #address: string;
  readonly #chain: () => string;

  constructor(options: SnapSignerOptions) {
    super();
    this.#address = options.address;
    if ('wallet' in options) {
      const { wallet } = options;
      this.#snap = wallet.snap;
      this.#chain = () => wallet.chainId;
    } else {
      const fixed = options.chainId ?? SN_SEPOLIA;
      this.#snap = options.snap;
      this.#chain = () => fixed;
    }
  }

  /** The chain the next signature is asked for. */
  get #chainId(): string {
    return this.#chain();
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
