/** Helpers shared by the e2e tests: snap calls, dialog driving, and dev-chain access for setup and checks. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installSnap } from '@metamask/snaps-jest';
import { hash, num } from 'starknet';
import { backendInfo } from './backend';

export const backend = backendInfo();
export const CHAIN_ID = backend.chainId;
/** The e2e snap is built with the dev chain as its test network; this is that network's name in dialogs. */
export const NETWORK = 'Starknet Sepolia';
export const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

/** Valid BIP-39 phrases, one per test file, so files do not share accounts on the shared chain. */
export const PHRASES = {
  default: 'test test test test test test test test test test test ball',
  story: 'legal winner thank year wave sausage worth useful legal winner thank yellow',
  methods: 'letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
  concurrency: 'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
  connector: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
} as const;

export type Snap = Awaited<ReturnType<typeof installSnap>>;
type Pending = ReturnType<Snap['request']>;
/** What the sending methods answer. */
export type AddTx = { code: string; transaction_hash: string };

const FIXTURES = join(__dirname, '..', '..', '..', '..', '..', 'shared', 'fixtures', 'cairo-test-data');
/** A compiled Cairo fixture (Sierra class or CASM) from the shared cairo-test-data. */
export const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

/**
 * Installs the e2e snap with a recovery phrase.
 *
 * @param phrase - The secret recovery phrase.
 * @returns The snap.
 */
export function install(phrase: string): Promise<Snap> {
  return installSnap({ options: { secretRecoveryPhrase: phrase } });
}

/**
 * Sends a wallet method to the snap (not awaited, so dialogs can be driven).
 *
 * @param snap - The snap.
 * @param method - The method.
 * @param params - Its params (chainId is added unless given).
 * @returns The pending response.
 */
export function send(snap: Snap, method: string, params: Record<string, unknown> = {}): Pending {
  return snap.request({ origin: 'https://dapp.example', method, params: { chainId: CHAIN_ID, ...params } as never });
}

/** The result of a successful response, or a thrown error describing the snap's error. */
export async function result<T = unknown>(pending: Pending): Promise<T> {
  const { response } = await pending;
  if ('error' in response) throw new Error(`snap error ${JSON.stringify(response.error)}`);
  return response.result as T;
}

/** The error of a response (fails when it succeeded). */
export async function errorOf(pending: Pending): Promise<{ code: number; message: string }> {
  const { response } = await pending;
  if (!('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response.result)}`);
  return response.error as { code: number; message: string };
}

/** Waits for the dialog of `pending` and presses OK (or Cancel). Returns the dialog for inspection. */
export async function answer(pending: Pending, ok: boolean) {
  const ui = await pending.getInterface();
  if (ok) await (ui as { ok: () => Promise<void> }).ok();
  else await (ui as { cancel: () => Promise<void> }).cancel();
  return ui;
}

/** Answers every dialog `pending` shows, in order, with the given answers. */
export async function answerAll(pending: Pending, answers: boolean[]) {
  const shown = [];
  for (const ok of answers) shown.push(await answer(pending, ok));
  return shown;
}

/** All text in a dialog's content, flattened. */
export function dialogText(ui: { content: unknown }): string {
  const out: string[] = [];
  const walk = (n: unknown) => {
    if (n === null || n === undefined || typeof n === 'boolean') return;
    if (typeof n === 'string' || typeof n === 'number') {
      out.push(String(n));
      return;
    }
    if (Array.isArray(n)) return n.forEach(walk);
    const props = (n as { props?: Record<string, unknown> }).props ?? {};
    if (typeof props.value === 'string') out.push(props.value);
    walk(props.children);
  };
  walk(ui.content);
  return out.join('\n');
}

/**
 * The labelled values of a confirmation dialog, in order (`[label, value]`, label without its colon): the snap's
 * dialogs show each field as a bold `label:` followed by a copyable value.
 */
export function dialogFields(ui: { content: unknown }): [string, string][] {
  type Node = { type?: string; props?: { children?: unknown; value?: unknown } };
  const root = ui.content as Node;
  const kids = root.props?.children;
  const list = (Array.isArray(kids) ? kids : [kids]) as Node[];
  const out: [string, string][] = [];
  for (let i = 0; i < list.length - 1; i++) {
    const bold = list[i]?.type === 'Text' ? (list[i]?.props?.children as Node | undefined) : undefined;
    const label = bold?.type === 'Bold' ? bold.props?.children : undefined;
    const next = list[i + 1];
    if (typeof label === 'string' && label.endsWith(':') && next?.type === 'Copyable') {
      out.push([label.slice(0, -1), String(next.props?.value)]);
    }
  }
  return out;
}

/** The value of the one field with this label (fails when it is missing or shown more than once). */
export function field(fields: [string, string][], label: string): string {
  const found = fields.filter(([l]) => l === label);
  if (found.length !== 1) throw new Error(`dialog has ${found.length} "${label}" fields: ${JSON.stringify(fields)}`);
  return found[0]![1];
}

/** Reads an amount the snap formats as `<whole>.<fraction> STRK` back into FRI. */
export function parseStrk(text: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,18}))? STRK$/.exec(text);
  if (!m) throw new Error(`not a STRK amount: ${text}`);
  return BigInt(m[1]!) * 10n ** 18n + BigInt((m[2] ?? '').padEnd(18, '0'));
}

type Bounds = Record<
  'l1_gas' | 'l2_gas' | 'l1_data_gas',
  { max_amount: string | bigint; max_price_per_unit: string | bigint }
>;

/** The most resource bounds let a transaction pay: the sum of max_amount x max_price_per_unit. */
export function boundsMax(rb: Bounds): bigint {
  return (['l1_gas', 'l2_gas', 'l1_data_gas'] as const).reduce(
    (sum, k) => sum + BigInt(rb[k].max_amount) * BigInt(rb[k].max_price_per_unit),
    0n,
  );
}

let rpcId = 0;
/**
 * Calls the backend's JSON-RPC directly (test setup and independent checks, not through the snap).
 *
 * @param method - The JSON-RPC method.
 * @param params - Named params.
 * @returns The result.
 */
export async function rpc<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(backend.devRpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
  if (body.error) {
    throw new Error(
      `${method}(${JSON.stringify(params)}): ${body.error.code} ${body.error.message} ${JSON.stringify(body.error.data)}`,
    );
  }
  return body.result as T;
}

/** Mints STRK (FRI) to an address on the dev chain. */
export async function mint(address: string, amount: bigint): Promise<void> {
  await rpc('devnet_mint', { address, amount: `0x${amount.toString(16)}`, unit: 'FRI' });
}

/** STRK balance of an address, read from the chain directly. */
export async function strkBalance(address: string): Promise<bigint> {
  const r = await rpc<string[]>('starknet_call', {
    request: {
      contract_address: STRK,
      entry_point_selector: hash.getSelectorFromName('balance_of'),
      calldata: [address],
    },
    block_id: 'latest',
  });
  return BigInt(r[0]!) + (BigInt(r[1]!) << 128n);
}

/** Polls until the transaction is accepted on L2 (or fails the test after a timeout). */
export async function waitAccepted(
  txHash: string,
  timeoutMs = 30_000,
): Promise<{ finality_status: string; execution_status?: string }> {
  const start = Date.now();
  for (;;) {
    try {
      const s = await rpc<{ finality_status: string; execution_status?: string }>('starknet_getTransactionStatus', {
        transaction_hash: txHash,
      });
      if (s.finality_status === 'ACCEPTED_ON_L2' || s.finality_status === 'ACCEPTED_ON_L1') return s;
    } catch (e) {
      if (Date.now() - start > timeoutMs) throw e;
    }
    if (Date.now() - start > timeoutMs) throw new Error(`${txHash} not accepted within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The account's nonce (read from the chain directly). */
export async function nonceOf(address: string): Promise<bigint> {
  return BigInt(await rpc<string>('starknet_getNonce', { block_id: 'latest', contract_address: address }));
}

/** Waits for each transaction, checks it succeeded, and returns the nonces it was sent with. */
export async function landedNonces(hashes: string[]): Promise<bigint[]> {
  const nonces: bigint[] = [];
  for (const h of hashes) {
    expect((await waitAccepted(h)).execution_status).toBe('SUCCEEDED');
    nonces.push(BigInt((await rpc<{ nonce: string }>('starknet_getTransactionByHash', { transaction_hash: h })).nonce));
  }
  return nonces;
}

/**
 * Setup: the snap's account at index 0, funded with `amount` FRI and deployed (its dialog approved), once the
 * deployment is accepted.
 *
 * @param snap - The snap.
 * @param amount - The STRK (FRI) minted to it before the deployment.
 * @returns The account's address.
 */
export async function deployedAccount(snap: Snap, amount: bigint): Promise<string> {
  const { address } = await result<{ address: string }>(send(snap, 'stk_createAccount', { addressIndex: 0 }));
  await mint(address, amount);
  const deploying = send(snap, 'stk_createAccount', { addressIndex: 0, deploy: true });
  await answer(deploying, true);
  await waitAccepted((await result<AddTx>(deploying)).transaction_hash);
  return address;
}

/** The smallest resource bounds a v3 details object can carry (only l2_gas 1 x 1): sign-only tests, never sent. */
export const TINY_BOUNDS = {
  l1_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
  l2_gas: { max_amount: '0x1', max_price_per_unit: '0x1' },
  l1_data_gas: { max_amount: '0x0', max_price_per_unit: '0x0' },
};

/** The class hash deployed at an address (read from the chain directly). */
export function classHashAt(address: string): Promise<string> {
  return rpc<string>('starknet_getClassHashAt', { block_id: 'latest', contract_address: address });
}

/** Normalised hex. */
export const hex = (v: string | bigint) => num.toHex(v);
