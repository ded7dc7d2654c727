import { WELCOME } from './welcomeState.js';

/** What {@link seedAnvilWelcome} found or did. */
export type AnvilWelcomeOutcome =
  | { readonly seeded: true; readonly deployTransaction: string; readonly transferTransaction: string }
  | { readonly seeded: false; readonly reason: 'has blocks' | 'other genesis' };

/** The longest one JSON-RPC call to anvil may take while seeding. */
const CALL_TIMEOUT_MS = 10_000;

/**
 * Gives a new anvil chain the welcome state ({@link WELCOME}.eth): block 1 deploys the storage
 * contract from dev account 0 (nonce 0, so at `0x5FbDB…0aa3`, slot 0 = 42), block 2 sends 1 ETH
 * from account 0 to account 1 (nonce 1). Every field is fixed (type 2, gas, max fee 2 gwei, no tip)
 * and the blocks get fixed timestamps, so with anvil started at `--timestamp`
 * {@link WELCOME}.eth.timestamps.genesis the hashes are the documented ones. (anvil's clock stays
 * on the welcome times: `prepareAnvilWelcome` seeds a short-lived anvil, and the one that
 * loads its chain runs on the time of day.)
 *
 * Seeds only a chain at genesis whose genesis is the welcome one (block 0 is the documented
 * hash); a chain with blocks (seeded before, or used) or started otherwise is left as it is, so
 * calling it on every start is safe.
 *
 * @example
 * const anvil = await startAnvil({ args: ['--timestamp', String(WELCOME.eth.timestamps.genesis)] });
 * await seedAnvilWelcome(anvil.http); // { seeded: true, … }
 */
export async function seedAnvilWelcome(url: string): Promise<AnvilWelcomeOutcome> {
  const call = rpcCaller(url);
  if ((await call('eth_blockNumber', [])) !== '0x0') return { seeded: false, reason: 'has blocks' };
  const genesis = (await call('eth_getBlockByNumber', ['0x0', false])) as { hash?: string } | null;
  if (genesis?.hash !== WELCOME.eth.genesisHash) return { seeded: false, reason: 'other genesis' };
  const chainId = await call('eth_chainId', []);
  const fees = { maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x0', type: '0x2', chainId };
  const send = async (timestamp: number, tx: Record<string, unknown>): Promise<string> => {
    await call('evm_setNextBlockTimestamp', [timestamp]);
    const hash = (await call('eth_sendTransaction', [{ from: WELCOME.eth.account, ...fees, ...tx }])) as string;
    // anvil answers with the hash before its block is sealed: wait for the receipt
    for (const end = Date.now() + CALL_TIMEOUT_MS; ; ) {
      const receipt = (await call('eth_getTransactionReceipt', [hash])) as { status?: string } | null;
      if (receipt?.status === '0x1') return hash;
      if (receipt || Date.now() > end) throw new Error(`the welcome transaction ${hash} was not mined successfully`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const deployTransaction = await send(WELCOME.eth.timestamps.deploy, {
    nonce: '0x0',
    gas: '0x30000',
    data: WELCOME.eth.bytecode,
  });
  const transferTransaction = await send(WELCOME.eth.timestamps.transfer, {
    nonce: '0x1',
    gas: '0x5208',
    to: WELCOME.eth.recipient,
    value: `0x${WELCOME.eth.transferValue.toString(16)}`,
  });
  return { seeded: true, deployTransaction, transferTransaction };
}

/** A JSON-RPC caller of `url` that throws on an error answer. */
function rpcCaller(url: string) {
  let id = 0;
  return async (method: string, params: unknown[]): Promise<unknown> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
    if (body.error) throw new Error(`anvil ${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
    return body.result;
  };
}
