/** The data directory: an append-only JSON-lines log of chain records. */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DevchainError, ErrorCode } from '../errors.js';
import type { ChainRecord } from './Chain.js';
import { decodeJson, encodeJson } from './codec.js';

const FILE = 'chain.jsonl';

/** Read a records file (one JSON record per line). */
export function readRecords(path: string): ChainRecord[] {
  const text = readFileSync(path, 'utf8');
  const out: ChainRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(decodeJson<ChainRecord>(line));
    } catch {
      // A torn last line (crash while appending) is dropped; anything else is an error.
      if (line === text.trimEnd().split('\n').pop()) break;
      throw new DevchainError(ErrorCode.UNEXPECTED_ERROR, { data: `corrupt record in ${path}` });
    }
  }
  if (out[0]?.kind !== 'config')
    throw new DevchainError(ErrorCode.UNEXPECTED_ERROR, { data: `${path} does not start with a config record` });
  return out;
}

/** Write records to a file atomically. */
export function writeRecords(path: string, records: readonly ChainRecord[]): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, records.map((r) => `${encodeJson(r)}\n`).join(''));
  renameSync(tmp, path);
}

/** A data directory holding the chain log. */
export class DataDir {
  readonly path: string;
  private buffer: string[] = [];

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, FILE);
  }

  /** Records stored so far, or undefined for a fresh directory. */
  load(): ChainRecord[] | undefined {
    return existsSync(this.path) ? readRecords(this.path) : undefined;
  }

  /** Queue a record; written by {@link flush}. */
  append(record: ChainRecord): void {
    this.buffer.push(`${encodeJson(record)}\n`);
  }

  /** Write queued records. */
  flush(): void {
    if (this.buffer.length === 0) return;
    appendFileSync(this.path, this.buffer.join(''));
    this.buffer = [];
  }

  /** Replace the whole log. */
  rewrite(records: readonly ChainRecord[]): void {
    this.buffer = [];
    writeRecords(this.path, records);
  }
}
