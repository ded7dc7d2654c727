import type { Json } from '@metamask/snaps-sdk';
import type { NetworkConfig } from './config';
import type { Params } from './lib/params';
import { stk_createAccount } from './rpcs/stk_createAccount';
import { stk_declareContract } from './rpcs/stk_declareContract';
import { stk_executeTxn } from './rpcs/stk_executeTxn';
import { stk_getCurrentNetwork } from './rpcs/stk_getCurrentNetwork';
import { stk_getDeploymentData } from './rpcs/stk_getDeploymentData';
import { stk_signDeclareTransaction } from './rpcs/stk_signDeclareTransaction';
import { stk_signDeployAccountTransaction } from './rpcs/stk_signDeployAccountTransaction';
import { stk_signTransaction } from './rpcs/stk_signTransaction';
import { stk_switchNetwork } from './rpcs/stk_switchNetwork';
import { stk_watchAsset } from './rpcs/stk_watchAsset';
import { stk_displayPrivateKey } from './rpcs/stk_displayPrivateKey';
import { stk_estimateAccountDeployFee } from './rpcs/stk_estimateAccountDeployFee';
import { stk_estimateFee } from './rpcs/stk_estimateFee';
import { stk_extractPublicKey } from './rpcs/stk_extractPublicKey';
import { stk_getErc20TokenBalance } from './rpcs/stk_getErc20TokenBalance';
import { stk_getStoredUserAccounts } from './rpcs/stk_getStoredUserAccounts';
import { stk_getTransactionStatus } from './rpcs/stk_getTransactionStatus';
import { stk_getTransactions } from './rpcs/stk_getTransactions';
import { stk_getValue } from './rpcs/stk_getValue';
import { stk_recoverAccounts } from './rpcs/stk_recoverAccounts';
import { stk_sendTransaction } from './rpcs/stk_sendTransaction';
import { stk_signMessage } from './rpcs/stk_signMessage';
import { stk_upgradeAccContract } from './rpcs/stk_upgradeAccContract';
import { stk_verifyMessage } from './rpcs/stk_verifyMessage';

/** Facts about the request itself, for consent dialogs. */
export interface RequestContext {
  /** The origin (dapp URL) that sent the request, as the wallet reports it. */
  readonly origin: string;
}

/** How a wallet method behaves. */
export interface MethodSpec {
  /** The implementation: validated params in, JSON out. */
  readonly handler: (params: Params, net: NetworkConfig, ctx: RequestContext) => Promise<unknown>;
  /** Whether the call talks to the node (then the node's chain id is checked first). */
  readonly usesChain: boolean | ((params: Params) => boolean);
  /** Whether the method shows a consent dialog before acting. */
  readonly needsConsent: boolean;
}

/** The wallet methods, by name. */
export const METHODS = {
  stk_createAccount: { handler: stk_createAccount, usesChain: (p: Params) => p.deploy === true, needsConsent: true },
  stk_displayPrivateKey: { handler: stk_displayPrivateKey, usesChain: false, needsConsent: true },
  stk_estimateAccountDeployFee: { handler: stk_estimateAccountDeployFee, usesChain: true, needsConsent: false },
  stk_estimateFee: { handler: stk_estimateFee, usesChain: true, needsConsent: false },
  stk_extractPublicKey: { handler: stk_extractPublicKey, usesChain: true, needsConsent: false },
  stk_getErc20TokenBalance: { handler: stk_getErc20TokenBalance, usesChain: true, needsConsent: false },
  stk_getStoredUserAccounts: { handler: stk_getStoredUserAccounts, usesChain: true, needsConsent: false },
  stk_getTransactions: { handler: stk_getTransactions, usesChain: true, needsConsent: false },
  stk_getTransactionStatus: { handler: stk_getTransactionStatus, usesChain: true, needsConsent: false },
  stk_getValue: { handler: stk_getValue, usesChain: true, needsConsent: false },
  stk_recoverAccounts: { handler: stk_recoverAccounts, usesChain: true, needsConsent: false },
  stk_sendTransaction: { handler: stk_sendTransaction, usesChain: true, needsConsent: true },
  stk_signMessage: { handler: stk_signMessage, usesChain: false, needsConsent: true },
  stk_upgradeAccContract: { handler: stk_upgradeAccContract, usesChain: true, needsConsent: true },
  stk_verifyMessage: { handler: stk_verifyMessage, usesChain: false, needsConsent: false },
  stk_executeTxn: { handler: stk_executeTxn, usesChain: true, needsConsent: true },
  stk_declareContract: { handler: stk_declareContract, usesChain: true, needsConsent: true },
  stk_getDeploymentData: { handler: stk_getDeploymentData, usesChain: true, needsConsent: false },
  stk_switchNetwork: { handler: stk_switchNetwork, usesChain: true, needsConsent: true },
  stk_getCurrentNetwork: { handler: stk_getCurrentNetwork, usesChain: false, needsConsent: false },
  stk_watchAsset: { handler: stk_watchAsset, usesChain: true, needsConsent: true },
  stk_signTransaction: { handler: stk_signTransaction, usesChain: false, needsConsent: true },
  stk_signDeclareTransaction: { handler: stk_signDeclareTransaction, usesChain: false, needsConsent: true },
  stk_signDeployAccountTransaction: { handler: stk_signDeployAccountTransaction, usesChain: false, needsConsent: true },
} as const satisfies Record<string, MethodSpec>;

/** A wallet method name. */
export type MethodName = keyof typeof METHODS;

/**
 * Whether `name` is one of the wallet methods.
 *
 * @param name - The requested method.
 * @returns True for a known method.
 */
export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHODS, name);
}

/** JSON result of a method (re-exported for callers typing results). */
export type MethodResult = Json;
