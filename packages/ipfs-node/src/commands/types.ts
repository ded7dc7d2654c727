import type { IncomingMessage } from 'node:http';
import type { CID } from 'multiformats/cid';
import type { MultipartFile } from '../http/multipartFiles.js';
import type { Repo } from '../repo/Repo.js';

/** Option value types, as Kubo's command options declare them. */
export type OptionType = 'bool' | 'int' | 'string';

/** One option (query parameter) of a command. */
export interface OptionSpec {
  type: OptionType;
  default?: boolean | number | string;
}

/** One positional argument of a command: `arg=` query values, or multipart files for `file`. */
export interface ArgSpec {
  name: string;
  kind: 'string' | 'file';
  required: boolean;
  variadic: boolean;
}

/**
 * How a command answers on the wire:
 * - `value`: one JSON object (application/json);
 * - `values`: newline-delimited JSON objects with `X-Chunked-Output: 1`;
 * - `bytes`: a byte stream with `X-Stream-Output: 1`.
 */
export type OutputKind = 'value' | 'values' | 'bytes';

/** What a command's `run` returns; streams are pulled by the HTTP writer (backpressure). */
export type CommandResult =
  | { kind: 'value'; value: unknown }
  | { kind: 'values'; values: AsyncIterable<unknown> }
  | { kind: 'bytes'; body: AsyncIterable<Uint8Array>; length?: bigint };

/** Parsed option values (defaults filled in). */
export interface CommandOptions {
  bool(name: string): boolean;
  /** Undefined when the option has no default and was not given. */
  int(name: string): number | undefined;
  string(name: string): string | undefined;
  has(name: string): boolean;
}

/** Everything a command needs to run. */
export interface CommandContext {
  repo: Repo;
  /** Node identity and version facts. */
  node: NodeFacts;
  args: string[];
  options: CommandOptions;
  /** Writes a CID for output (honours `cid-base` and `upgrade-cidv0-in-output`). */
  cidString(cid: CID): string;
  /** The multipart file parts of the request body, in order; pulled one at a time. */
  files(): AsyncIterable<MultipartFile>;
  request: IncomingMessage;
  /** Aborted when the client goes away or the `timeout` option elapses. */
  signal: AbortSignal;
}

/** Static facts and settings of the node (reported by `version` and `id`, used by `add`). */
export interface NodeFacts {
  version: string;
  agentVersion: string;
  /** Directories whose links take more bytes than this become HAMT-sharded (Kubo: 256 KiB). */
  shardingThresholdBytes: number;
}

/** A command's entry in the command table. */
export interface CommandSpec {
  /** One line describing the command. */
  description: string;
  args: readonly ArgSpec[];
  options: Readonly<Record<string, OptionSpec>>;
  /** The output kinds `run` may return (pin/ls answers `values` with `stream=true`). */
  output: readonly OutputKind[];
  run(ctx: CommandContext): Promise<CommandResult>;
}
