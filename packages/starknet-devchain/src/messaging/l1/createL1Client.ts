/**
 * A JSON-RPC client of an Ethereum node (the postman's L1): the handful of calls the postman makes, each with a
 * timeout, every failure a {@link DevchainError} that names the L1 node without its URL's credentials.
 */
import { DevchainError, ErrorCode } from '../../errors.js';

/** A transaction receipt, as far as the postman reads it. */
export interface L1Receipt {
  transactionHash: string;
  status: string;
  contractAddress?: string | null;
  blockNumber: string;
}

/** A log, as far as the postman reads it. */
export interface L1Log {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
}

/** What the postman asks of its L1 node. */
export interface L1Client {
  /** The URL without credentials (for answers and errors). */
  readonly shownUrl: string;
  chainId(): Promise<bigint>;
  blockNumber(): Promise<bigint>;
  /** The node's unlocked accounts (`eth_accounts`). */
  accounts(): Promise<string[]>;
  getCode(address: string): Promise<string>;
  call(to: string, data: string): Promise<string>;
  getLogs(filter: { address: string; topics: string[]; fromBlock: bigint; toBlock: bigint }): Promise<L1Log[]>;
  /** Sends a transaction from an unlocked account and waits for its receipt (reverted: an error). */
  transact(tx: { from: string; to?: string; data: string; value?: bigint }): Promise<L1Receipt>;
}

/** Options of {@link createL1Client}. */
export interface L1ClientOptions {
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** How long a sent transaction may wait for its receipt (default 60 s: an L1 with a block time mines later). */
  receiptTimeoutMs?: number;
}

/** `url` without user info and query (what errors and answers may show). */
export function shownL1Url(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * A client of the Ethereum node at `url` (http or https).
 *
 * @example
 * const l1 = createL1Client(new URL('http://127.0.0.1:8545'));
 * await l1.blockNumber();
 */
export function createL1Client(url: URL, options: L1ClientOptions = {}): L1Client {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const receiptTimeoutMs = options.receiptTimeoutMs ?? 60_000;
  const shownUrl = shownL1Url(url);
  let id = 0;
  const fail = (what: string) => new DevchainError(ErrorCode.DEVNET_ERROR, { message: `L1 node ${shownUrl}: ${what}` });

  async function rpc<T>(method: string, params: unknown[]): Promise<T> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const why = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'unreachable';
      throw fail(`${method}: ${why}`);
    }
    const text = await res.text().catch(() => '');
    let body: { result?: unknown; error?: { message?: unknown } };
    try {
      body = JSON.parse(text);
    } catch {
      throw fail(`${method}: HTTP ${res.status}, not a JSON-RPC answer`);
    }
    if (body.error) throw fail(`${method}: ${String(body.error.message ?? 'error').slice(0, 300)}`);
    return body.result as T;
  }

  const quantity = (v: bigint) => `0x${v.toString(16)}`;

  return {
    shownUrl,
    chainId: async () => BigInt(await rpc<string>('eth_chainId', [])),
    blockNumber: async () => BigInt(await rpc<string>('eth_blockNumber', [])),
    accounts: () => rpc<string[]>('eth_accounts', []),
    getCode: (address) => rpc<string>('eth_getCode', [address, 'latest']),
    call: (to, data) => rpc<string>('eth_call', [{ to, data }, 'latest']),
    getLogs: (f) =>
      rpc<L1Log[]>('eth_getLogs', [
        { address: f.address, topics: f.topics, fromBlock: quantity(f.fromBlock), toBlock: quantity(f.toBlock) },
      ]),
    async transact(tx) {
      const sent = { from: tx.from, data: tx.data, ...(tx.to ? { to: tx.to } : {}) };
      const hash = await rpc<string>('eth_sendTransaction', [
        tx.value === undefined ? sent : { ...sent, value: quantity(tx.value) },
      ]);
      const end = Date.now() + receiptTimeoutMs;
      for (;;) {
        const receipt = await rpc<L1Receipt | null>('eth_getTransactionReceipt', [hash]);
        if (receipt) {
          if (receipt.status !== '0x1') throw fail(`transaction ${hash} reverted`);
          return receipt;
        }
        if (Date.now() > end) throw fail(`transaction ${hash} not mined within ${receiptTimeoutMs / 1000} s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
