import { invalidParams } from '../../errors.js';
import { type MethodContext, type Params, required } from '../types.js';

/**
 * devnet_postmanLoad: uses the Ethereum node at `network_url` (http or https) as L1, deploying the messaging contract
 * there, or attaching the one at `messaging_contract_address` (alias `address`). The postman's L1 transactions come
 * from the node's first unlocked account: a private key is not taken (nodegate signs nothing on L1).
 */
export async function devnet_postmanLoad(
  ctx: MethodContext,
  p: Params,
): Promise<{ messaging_contract_address: string }> {
  const raw = required(p, 'network_url');
  let url: URL | undefined;
  try {
    url = typeof raw === 'string' ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw invalidParams('network_url: expected the http(s) URL of an Ethereum JSON-RPC node');
  }
  const address = p.messaging_contract_address ?? p.address;
  if (address !== undefined && (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address))) {
    throw invalidParams('messaging_contract_address: expected an Ethereum address (0x and 40 hex digits)');
  }
  if (p.deployer_account_private_key !== undefined || p.funded_account_private_key !== undefined) {
    throw invalidParams(
      "deployer_account_private_key: not taken; the postman's L1 transactions come from the L1 node's first unlocked account",
    );
  }
  return { messaging_contract_address: await ctx.node.postman.load(url, address) };
}
