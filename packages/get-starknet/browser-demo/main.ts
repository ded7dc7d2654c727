/**
 * The browser demo dApp: an ordinary get-starknet v4 + starknet.js page. It injects the nodegate wallet (as the
 * extension-free connector would), finds it through get-starknet discovery, connects `WalletAccount`, shows the
 * address and STRK balance, sends a transfer and signs SNIP-12 typed data. Every state is in a DOM element with an id.
 *
 * Query: `?rpc=<nodegate Starknet RPC URL>` (required), `&snap=<snap id>` and `&chain=<chain id>` (optional).
 */
import { getStarknet } from 'get-starknet-core';
import { CallData, cairo, RpcProvider, type TypedData, uint256, WalletAccount } from 'starknet';
import { injectNodegateWallet } from '../src/injectNodegateWallet.js';

const STRK = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';

const query = new URLSearchParams(location.search);
const nodeUrl = query.get('rpc') ?? '';
const snapId = query.get('snap');
const chainId = query.get('chain');

injectNodegateWallet({ ...(snapId ? { snapId } : {}), ...(chainId ? { chainId } : {}) });

const provider = new RpcProvider({ nodeUrl });
let account: WalletAccount | undefined;

function el<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} missing`);
  return found as T;
}

function show(id: string, text: string): void {
  el(id).textContent = text;
}

/** Sets a state element: `idle`, `busy`, `done` or `error` (with the message). */
function state(id: string, value: 'idle' | 'busy' | 'done' | 'error', text: string = value): void {
  const node = el(id);
  node.dataset.state = value;
  node.textContent = text;
}

function errorText(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown; data?: unknown };
    const code = e.code === undefined ? '' : `${String(e.code)} `;
    const data = e.data === undefined ? '' : ` ${JSON.stringify(e.data)}`;
    return `${code}${String(e.message)}${data}`;
  }
  return String(error);
}

async function strkBalance(address: string): Promise<bigint> {
  const r = await provider.callContract({ contractAddress: STRK, entrypoint: 'balance_of', calldata: [address] });
  return uint256.uint256ToBN({ low: r[0] ?? 0, high: r[1] ?? 0 });
}

function formatStrk(fri: bigint): string {
  const whole = fri / 10n ** 18n;
  const frac = (fri % 10n ** 18n).toString().padStart(18, '0').slice(0, 6);
  return `${whole}.${frac}`;
}

async function refreshBalance(address: string): Promise<void> {
  const balance = await strkBalance(address);
  show('balance', balance.toString());
  show('balance-strk', formatStrk(balance));
}

const typedData: TypedData = {
  types: {
    StarknetDomain: [
      { name: 'name', type: 'shortstring' },
      { name: 'version', type: 'shortstring' },
      { name: 'chainId', type: 'shortstring' },
      { name: 'revision', type: 'shortstring' },
    ],
    Mail: [
      { name: 'to', type: 'ContractAddress' },
      { name: 'contents', type: 'shortstring' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'nodegate demo', version: '1', chainId: 'SN_SEPOLIA', revision: '1' },
  message: { to: '0x1234', contents: 'hello from the browser' },
};
show('typed-data', JSON.stringify(typedData));
// The API key in the URL is shown shortened, as nodegate's own logs do (screenshots of this page are kept).
show('rpc', nodeUrl ? nodeUrl.replace(/\/v3\/([^/]{4})[^/]*/, '/v3/$1…') : '(missing ?rpc=)');

async function connect(): Promise<void> {
  state('connect-state', 'busy', 'connecting');
  try {
    if (!nodeUrl) throw new Error('the page needs ?rpc=<nodegate Starknet RPC URL>');
    const wallets = await getStarknet().getAvailableWallets();
    show('wallets', wallets.map((w) => w.id).join(', '));
    const wallet = wallets.find((w) => w.id === 'nodegate');
    if (!wallet) throw new Error('get-starknet did not find the nodegate wallet');
    // get-starknet v4's wallet type comes from an older @starknet-io/types-js than starknet.js's: same shape.
    account = await WalletAccount.connect(provider, wallet as unknown as Parameters<typeof WalletAccount.connect>[1]);
    show('address', account.address);
    show('chain', String(await wallet.request({ type: 'wallet_requestChainId' })));
    await refreshBalance(account.address);
    el<HTMLButtonElement>('transfer').disabled = false;
    el<HTMLButtonElement>('sign').disabled = false;
    state('connect-state', 'done', 'connected');
  } catch (error) {
    state('connect-state', 'error', errorText(error));
  }
}

async function transfer(): Promise<void> {
  if (!account) return;
  state('transfer-state', 'busy', 'sending');
  show('tx-hash', '');
  show('tx-status', '');
  try {
    const recipient = el<HTMLInputElement>('recipient').value.trim();
    const amount = BigInt(el<HTMLInputElement>('amount').value.trim());
    const { transaction_hash } = await account.execute({
      contractAddress: STRK,
      entrypoint: 'transfer',
      calldata: CallData.compile({ recipient, amount: cairo.uint256(amount) }),
    });
    show('tx-hash', transaction_hash);
    state('transfer-state', 'busy', 'waiting for acceptance');
    const receipt = await provider.waitForTransaction(transaction_hash, { retryInterval: 250 });
    const status = (receipt as { execution_status?: string }).execution_status ?? 'unknown';
    show('tx-status', status);
    await refreshBalance(account.address);
    if (status === 'SUCCEEDED') state('transfer-state', 'done', 'accepted');
    else state('transfer-state', 'error', `execution ${status}`);
  } catch (error) {
    state('transfer-state', 'error', errorText(error));
  }
}

async function sign(): Promise<void> {
  if (!account) return;
  state('sign-state', 'busy', 'signing');
  show('signature', '');
  try {
    const signature = await account.signMessage(typedData);
    const felts = (signature as unknown[]).map((s) => `0x${BigInt(s as string).toString(16)}`);
    show('signature', JSON.stringify(felts));
    state('sign-state', 'done', 'signed');
  } catch (error) {
    state('sign-state', 'error', errorText(error));
  }
}

el('connect').addEventListener('click', () => void connect());
el('transfer').addEventListener('click', () => void transfer());
el('sign').addEventListener('click', () => void sign());
document.body.dataset.ready = 'true';
