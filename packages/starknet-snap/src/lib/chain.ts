import { RpcError, RpcProvider } from 'starknet';
import type { NetworkConfig } from '../config';
import { SnapErrorCode, snapError } from './errors';

const providers = new Map<string, RpcProvider>();
const checkedChainIds = new Set<string>();

/**
 * The JSON-RPC provider for a network (one per network, reused). Fee estimates come back without overhead:
 * the snap adds its own margin (see `fees.ts`). It is not told the chain id: the first `getChainId()` asks the node
 * (`starknet_chainId`), which is what {@link assertChainId} checks, and that answer is the one it signs with.
 *
 * @param net - The network.
 * @returns The provider.
 */
export function providerFor(net: NetworkConfig): RpcProvider {
  let p = providers.get(net.chainId);
  if (!p) {
    p = new RpcProvider({ nodeUrl: net.rpcUrl, resourceBoundsOverhead: false });
    providers.set(net.chainId, p);
  }
  return p;
}

/**
 * Checks once per network that the node behind the configured URL serves the chain the caller asked for, so the
 * snap never signs for one chain and sends to another.
 *
 * @param net - The network.
 */
export async function assertChainId(net: NetworkConfig): Promise<void> {
  if (checkedChainIds.has(net.chainId)) return;
  const reported = await chainCall(net, 'read the chain id', () => providerFor(net).getChainId());
  if (BigInt(reported as string) !== BigInt(net.chainId)) {
    providers.delete(net.chainId); // it keeps the chain id it was given: the next check asks the node again
    throw snapError(
      SnapErrorCode.NodeUnreachable,
      `The nodegate endpoint configured for ${net.name} serves chain ${reported}, not ${net.chainId}; rebuild the snap with the right SNAP_*_URL for this network`,
    );
  }
  checkedChainIds.add(net.chainId);
}

/** Hints that turn a Starknet error code into something a person can act on. */
const HINTS: Readonly<Record<number, string>> = {
  1: 'the node did not accept the transaction; try again',
  20: 'no contract is deployed at that address on this network; check the address (an account must be deployed first)',
  21: 'the contract has no such function; check contractFuncName',
  24: 'the node does not know that block',
  28: 'the class hash is not declared on this network',
  29: 'the node does not know that transaction hash on this network',
  40: 'the contract call failed',
  41: 'the transaction failed while executing',
  52: 'the account nonce changed; send the transaction again',
  53: 'the fee bounds are below what the transaction needs; omit maxFee or raise it',
  54: 'the account balance is below the maximal fee; fund the account with STRK or lower maxFee',
  55: 'the account rejected the signature',
  58: 'the sender is not an account contract',
  59: 'the same transaction is already waiting in the mempool',
  63: 'the node hit an unexpected error',
};

function detail(data: unknown): string {
  if (data === undefined || data === null) return '';
  if (typeof data === 'string') return data;
  if (typeof data === 'object') {
    const d = data as Record<string, unknown>;
    const inner = d.revert_error ?? d.execution_error ?? d;
    return typeof inner === 'string' ? inner : JSON.stringify(inner);
  }
  return String(data);
}

/**
 * Runs a chain request and turns its failure into a snap error: node errors keep their Starknet code with the
 * node's message, a hint and the node's details; transport failures name the network and what was being done.
 * The API key in the URL never appears in a message.
 *
 * @param net - The network.
 * @param what - What the snap was doing, e.g. "read the balance of 0x12…".
 * @param fn - The request.
 * @returns The request's result.
 */
export async function chainCall<T>(net: NetworkConfig, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw chainError(net, what, e);
  }
}

/**
 * Maps any error thrown by starknet.js to a snap error (see {@link chainCall}).
 *
 * @param net - The network.
 * @param what - What the snap was doing.
 * @param e - The error.
 * @returns The snap error.
 */
export function chainError(net: NetworkConfig, what: string, e: unknown): Error {
  if (e instanceof RpcError) {
    const { code, message, data } = e.baseError as { code: number; message: string; data?: unknown };
    const more = detail(data);
    const hint = HINTS[code];
    return snapError(
      code,
      `Could not ${what} on ${net.name}: ${message}${hint ? ` (${hint})` : ''}${more ? `: ${truncate(more)}` : ''}`,
      data === undefined || data === null
        ? undefined
        : typeof data === 'object'
          ? (data as Record<string, unknown>)
          : { detail: data },
    );
  }
  if (e && typeof e === 'object' && 'code' in e && typeof (e as { code: unknown }).code === 'number') {
    return e as unknown as Error; // already a snap error
  }
  const msg = redact(net, e instanceof Error ? e.message : String(e));
  if (!TRANSPORT_FAILURE.test(msg)) {
    // Not the node: a failure inside the snap or starknet.js, reported as such rather than blamed on nodegate.
    return snapError(-32603, `Could not ${what} on ${net.name}: ${truncate(msg)}`);
  }
  return snapError(
    SnapErrorCode.NodeUnreachable,
    `Could not ${what} on ${net.name}: the nodegate endpoint failed (${truncate(msg)}); check that nodegate is running and the API key is valid`,
  );
}

/** Messages of failures that happen between the snap and the node (connection, HTTP body, timeouts). */
const TRANSPORT_FAILURE =
  /fetch|network|ECONN|EAI_AGAIN|socket|timed? ?out|JSON|Unexpected token|empty response|status|HTTP|Bad Gateway|Service Unavailable|Too Many Requests/i;

function truncate(s: string): string {
  return s.length > 500 ? `${s.slice(0, 500)}…` : s;
}

function redact(net: NetworkConfig, s: string): string {
  return s.split(net.rpcUrl).join('<nodegate>');
}

/**
 * Whether an error is the node's CONTRACT_NOT_FOUND (code 20), i.e. nothing is deployed at the address.
 *
 * @param e - The error.
 * @returns True for code 20.
 */
export function isContractNotFound(e: unknown): boolean {
  return e instanceof RpcError ? e.code === 20 : (e as { code?: unknown })?.code === 20;
}

/**
 * The class hash deployed at `address`, or undefined when nothing is deployed there.
 *
 * @param net - The network.
 * @param address - The contract address.
 * @returns The class hash or undefined.
 */
export async function deployedClassHash(net: NetworkConfig, address: string): Promise<string | undefined> {
  try {
    return await providerFor(net).getClassHashAt(address, 'pre_confirmed');
  } catch (e) {
    if (isContractNotFound(e)) return undefined;
    throw chainError(net, `read the class of ${address}`, e);
  }
}
