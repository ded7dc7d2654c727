import { readFile, rename, writeFile } from 'node:fs/promises';
import { keccak256 } from 'ox/Hash';
import type { Hex } from 'ox/Hex';
import { fromHex as toRlp } from 'ox/Rlp';

/** What {@link keepAnvilGenesis} found in a state file. */
export type AnvilGenesisCheck =
  | { readonly changed: false; readonly reason: 'no file' | 'one genesis' }
  | {
      readonly changed: true;
      /** The timestamp of the genesis kept (seconds). */
      readonly genesisTimestamp: number;
      /** How many other block-0 entries were removed. */
      readonly removed: number;
      /** How the genesis kept was told from the others. */
      readonly by: 'parent of block 1' | 'earliest';
    };

interface DumpedHeader {
  readonly number?: string;
  readonly timestamp?: string;
  readonly parentHash?: string;
  readonly [field: string]: unknown;
}
interface DumpedState {
  blocks?: Array<{ header?: DumpedHeader }>;
}

/**
 * Makes an anvil state file (`--state`) name one genesis again, before anvil loads it. anvil
 * builds a genesis block of its own at every start (at the time of day, without `--timestamp`),
 * then loads the file's blocks over it; its dump holds every block it knows, so after a restart
 * the file has two blocks numbered 0 (the chain's and the one of that start) in no set order, and
 * the next load keeps whichever comes last as block 0: about one restart in two gave the chain a
 * genesis that is not the parent of its block 1. Giving anvil `--timestamp` again is no cure: it
 * also sets anvil's clock, so later blocks would get the genesis's time.
 *
 * The genesis kept is the block 0 that the file's block 1 names as its parent (headers hashed
 * as Ethereum does: keccak of the RLP of their fields), or, with no block 1 or no match, the
 * earliest one (every other was made by a later start). The file is rewritten through a
 * temporary file and a rename, so a crash leaves the old one whole; numbers that JavaScript
 * cannot hold exactly are written back as they were read. A file with one genesis (or none)
 * is left untouched.
 *
 * @example
 * await keepAnvilGenesis(join(dataDir, 'anvil', 'state.json'));
 * const anvil = await startAnvil({ stateFile: join(dataDir, 'anvil', 'state.json') });
 */
export async function keepAnvilGenesis(stateFile: string): Promise<AnvilGenesisCheck> {
  const text = await readFile(stateFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (text === undefined) return { changed: false, reason: 'no file' };
  if (genesisCount(JSON.parse(text) as DumpedState) <= 1) return { changed: false, reason: 'one genesis' };
  // numbers beyond 2^53 (u64/u128 fields) are kept as their source text
  const state = JSON.parse(text, (_key, value, context?: { source?: string }) =>
    typeof value === 'number' && context?.source !== undefined && String(value) !== context.source
      ? rawJSON(context.source)
      : value,
  ) as DumpedState;
  const blocks = state.blocks ?? [];
  const geneses = blocks.filter((b) => isNumber(b.header, 0));
  if (geneses.length <= 1) return { changed: false, reason: 'one genesis' };

  const parents = new Set(
    blocks.filter((b) => isNumber(b.header, 1)).map((b) => String(b.header?.parentHash).toLowerCase()),
  );
  let kept = geneses.find((b) => parents.has(headerHash(b.header!) ?? ''));
  const by = kept ? 'parent of block 1' : 'earliest';
  kept ??= geneses.reduce((a, b) => (timestampOf(b.header!) < timestampOf(a.header!) ? b : a));
  state.blocks = blocks.filter((b) => b === kept || !isNumber(b.header, 0));

  const tmp = `${stateFile}.genesis.tmp`;
  await writeFile(tmp, JSON.stringify(state));
  await rename(tmp, stateFile);
  return { changed: true, genesisTimestamp: timestampOf(kept.header!), removed: geneses.length - 1, by };
}

/** `JSON.rawJSON` (Node 21+; not in TypeScript's lib yet): a value JSON.stringify writes as the text given. */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

function genesisCount(state: DumpedState): number {
  return (state.blocks ?? []).filter((b) => isNumber(b.header, 0)).length;
}

function isNumber(header: DumpedHeader | undefined, n: number): boolean {
  return typeof header?.number === 'string' && Number(header.number) === n;
}

function timestampOf(header: DumpedHeader): number {
  return Number(header.timestamp ?? Number.POSITIVE_INFINITY);
}

/** The header fields in the order Ethereum's RLP encoding takes them, quantities marked. */
const HEADER_FIELDS: ReadonlyArray<readonly [name: string, quantity: boolean, optional: boolean]> = [
  ['parentHash', false, false],
  ['sha3Uncles', false, false],
  ['miner', false, false],
  ['stateRoot', false, false],
  ['transactionsRoot', false, false],
  ['receiptsRoot', false, false],
  ['logsBloom', false, false],
  ['difficulty', true, false],
  ['number', true, false],
  ['gasLimit', true, false],
  ['gasUsed', true, false],
  ['timestamp', true, false],
  ['extraData', false, false],
  ['mixHash', false, false],
  ['nonce', false, false],
  ['baseFeePerGas', true, true],
  ['withdrawalsRoot', false, true],
  ['blobGasUsed', true, true],
  ['excessBlobGas', true, true],
  ['parentBeaconBlockRoot', false, true],
  ['requestsHash', false, true],
];

/**
 * The hash of a dumped header, or undefined when it has a field this encoding does not know (a
 * later fork's: the caller then falls back to the earliest genesis).
 */
function headerHash(header: DumpedHeader): string | undefined {
  const known = new Set(HEADER_FIELDS.map(([name]) => name));
  if (Object.keys(header).some((k) => !known.has(k) && header[k] !== null)) return undefined;
  const items: Hex[] = [];
  let ended = false;
  for (const [name, quantity, optional] of HEADER_FIELDS) {
    const value = header[name];
    if (value === undefined || value === null) {
      if (!optional) return undefined;
      ended = true;
      continue;
    }
    // optional fields are a prefix: one present after one absent is not an encoding we know
    if (ended || typeof value !== 'string' || !/^0x[0-9a-fA-F]*$/.test(value)) return undefined;
    items.push(quantity ? quantityBytes(value) : (value as Hex));
  }
  return keccak256(toRlp(items)).toLowerCase();
}

/** A JSON-RPC quantity as RLP wants it: big-endian, no leading zero bytes (0 is empty). */
function quantityBytes(value: string): Hex {
  const n = BigInt(value);
  if (n === 0n) return '0x';
  const hex = n.toString(16);
  return `0x${hex.length % 2 ? '0' : ''}${hex}`;
}
