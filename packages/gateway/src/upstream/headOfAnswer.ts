import { RawJson } from '../jsonrpc/RawJson.js';

/** A block number as a JSON-RPC result writes it: a hex quantity (Ethereum) or a number (Starknet). */
function blockNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(v)) return Number.parseInt(v, 16);
  return undefined;
}

/** A result as a value: RawJson text is parsed (only small answers reach here, or a field is read from text). */
function value(result: unknown): unknown {
  if (!(result instanceof RawJson)) return result;
  try {
    return JSON.parse(result.text);
  } catch {
    return undefined;
  }
}

/** A block object's own `number` (not a transaction's `blockNumber`), read from text without parsing the block. */
const BLOCK_NUMBER_FIELD = /[{,]\s*"number"\s*:\s*"(0x[0-9a-fA-F]{1,13})"/;

function numberOfBlock(result: unknown): number | undefined {
  if (result instanceof RawJson) {
    const m = BLOCK_NUMBER_FIELD.exec(result.text);
    return m === null ? undefined : Number.parseInt(m[1]!, 16);
  }
  if (typeof result === 'object' && result !== null) return blockNumber((result as { number?: unknown }).number);
  return undefined;
}

const isLatest = (params: unknown, at: number): boolean => Array.isArray(params) && params[at] === 'latest';
const isStarknetLatest = (params: unknown): boolean =>
  typeof params === 'object' && params !== null && (params as { block_id?: unknown }).block_id === 'latest';

/**
 * The answers that tell a client the chain's head, by upstream method: what the head is in
 * them. A client must never see these go backwards because routing moved to a node behind.
 */
const HEAD_ANSWERS: Readonly<Record<string, (params: unknown, result: unknown) => number | undefined>> = {
  eth_blockNumber: (_p, r) => blockNumber(value(r)),
  eth_getBlockByNumber: (p, r) => (isLatest(p, 0) ? numberOfBlock(r) : undefined),
  starknet_blockNumber: (_p, r) => blockNumber(value(r)),
  starknet_blockHashAndNumber: (_p, r) => blockNumber((value(r) as { block_number?: unknown } | null)?.block_number),
  starknet_getBlockWithTxHashes: (p, r) =>
    isStarknetLatest(p) ? blockNumber((value(r) as { block_number?: unknown } | null)?.block_number) : undefined,
};

/**
 * The head an answer shows the client, or undefined when it shows none (another method, a block
 * asked by number, a result of an unexpected shape). Raw results are read from their text.
 *
 * @example
 * headOfAnswer('eth_blockNumber', [], '0x1f');                                  // 31
 * headOfAnswer('eth_getBlockByNumber', ['latest', false], new RawJson('{"number":"0x20",…}')); // 32
 * headOfAnswer('eth_getBlockByNumber', ['0x5', false], { number: '0x5' });      // undefined
 */
export function headOfAnswer(method: string, params: unknown, result: unknown): number | undefined {
  const read = Object.hasOwn(HEAD_ANSWERS, method) ? HEAD_ANSWERS[method] : undefined;
  return read === undefined ? undefined : read(params, result);
}
