const NONE: readonly string[] = Object.freeze([]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const FELT = /^0x[0-9a-fA-F]{1,64}$/;
/** At most this many calls are read from one multicall (more reach every contract). */
const MAX_CALLS = 1_000;

/** A felt as a bigint, or undefined when it is not 0x-hex. */
function felt(v: unknown): bigint | undefined {
  return typeof v === 'string' && FELT.test(v) ? BigInt(v) : undefined;
}

/** Cairo 1 `__execute__` calldata: `[n, (to, selector, len, ...data)*]`, exactly; the positions of the `to`s. */
function cairo1Targets(data: readonly bigint[]): number[] | undefined {
  const n = data[0];
  if (n === undefined || n > BigInt(MAX_CALLS)) return undefined;
  const targets: number[] = [];
  let pos = 1;
  for (let i = 0; i < Number(n); i++) {
    const len = data[pos + 2];
    if (len === undefined || len > BigInt(data.length)) return undefined;
    targets.push(pos);
    pos += 3 + Number(len);
    if (pos > data.length) return undefined;
  }
  return pos === data.length ? targets : undefined;
}

/** Cairo 0 `__execute__` calldata: `[n, (to, selector, offset, len)*, total, ...data]`, exactly; the positions of the `to`s. */
function cairo0Targets(data: readonly bigint[]): number[] | undefined {
  const n = data[0];
  if (n === undefined || n > BigInt(MAX_CALLS)) return undefined;
  const count = Number(n);
  const total = data[1 + count * 4];
  if (total === undefined || BigInt(data.length) !== BigInt(2 + count * 4) + total) return undefined;
  const targets: number[] = [];
  for (let i = 0; i < count; i++) {
    const offset = data[1 + i * 4 + 2]!;
    const len = data[1 + i * 4 + 3]!;
    if (offset + len > total) return undefined;
    targets.push(1 + i * 4);
  }
  return targets;
}

/**
 * What one simulated INVOKE names: its sender (the account whose `__validate__` and `__execute__`
 * run) and the targets of its multicall, read in both layouts a standard account accepts (Cairo 1
 * and Cairo 0; calldata that reads both ways names both). Undefined when it can reach every
 * contract: no sender (an old v0 invoke), calldata in neither layout, a paymaster or an account
 * deployment (code the allowlist cannot see), or an unexpected shape.
 */
function invokeContracts(tx: Record<string, unknown>): string[] | undefined {
  const calldata: unknown = tx.calldata;
  if (typeof tx.sender_address !== 'string' || !Array.isArray(calldata)) return undefined;
  for (const field of ['paymaster_data', 'account_deployment_data'] as const) {
    const v = tx[field];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0)) return undefined;
  }
  const data: bigint[] = [];
  for (const x of calldata) {
    const f = felt(x);
    if (f === undefined) return undefined;
    data.push(f);
  }
  const one = cairo1Targets(data);
  const zero = cairo0Targets(data);
  if (one === undefined && zero === undefined) return undefined;
  const positions = new Set([...(one ?? []), ...(zero ?? [])]);
  return [tx.sender_address, ...[...positions].sort((a, b) => a - b).map((i) => calldata[i] as string)];
}

/**
 * The contracts a list of transactions to simulate names (`starknet_estimateFee`'s `request`,
 * `starknet_simulateTransactions`' `transactions`), for the key's contract allowlist: for each
 * INVOKE its sender and its multicall's targets. `[]` (every contract: refused when the key has
 * an allowlist) when one of them is a DECLARE or a DEPLOY_ACCOUNT (they bring code: a class, a
 * new account's constructor and `__validate_deploy__`, which can call anything) or cannot be read;
 * undefined for an empty list. Never throws.
 *
 * @example
 * transactionContracts([{ type: 'INVOKE', sender_address: ACCOUNT, calldata: ['0x1', TOKEN, SELECTOR, '0x0'], … }])
 * // [ACCOUNT, TOKEN]
 * transactionContracts([{ type: 'DECLARE', … }]) // []
 */
export function transactionContracts(transactions: unknown): readonly string[] | undefined {
  if (!Array.isArray(transactions)) return NONE;
  if (transactions.length === 0) return undefined;
  const out: string[] = [];
  for (const tx of transactions) {
    if (!isObject(tx) || tx.type !== 'INVOKE') return NONE;
    const named = invokeContracts(tx);
    if (named === undefined) return NONE;
    out.push(...named);
  }
  return out;
}
