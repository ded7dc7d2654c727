import { add } from './add.js';
import { blockGet } from './block/get.js';
import { blockPut } from './block/put.js';
import { blockRm } from './block/rm.js';
import { blockStat } from './block/stat.js';
import { cat } from './cat.js';
import { dagExport } from './dag/export.js';
import { dagGet } from './dag/get.js';
import { dagImport } from './dag/import.js';
import { dagPut } from './dag/put.js';
import { dagResolve } from './dag/resolve.js';
import { dagStat } from './dag/stat.js';
import { dns } from './dns.js';
import { get } from './get.js';
import { id } from './id.js';
import { ls } from './ls.js';
import { pinAdd } from './pin/add.js';
import { pinLs } from './pin/ls.js';
import { pinRm } from './pin/rm.js';
import { pinUpdate } from './pin/update.js';
import { refsLocal } from './refs/local.js';
import { refs } from './refs/refs.js';
import { repoGc } from './repo/gc.js';
import { repoStat } from './repo/stat.js';
import { repoVersion } from './repo/version.js';
import { resolve } from './resolve.js';
import type { ArgSpec, CommandSpec } from './types.js';
import { version } from './version.js';

const bool = (def = false) => ({ type: 'bool', default: def }) as const;
const int = (def?: number) =>
  def === undefined ? ({ type: 'int' } as const) : ({ type: 'int', default: def } as const);
const str = (def?: string) =>
  def === undefined ? ({ type: 'string' } as const) : ({ type: 'string', default: def } as const);
const arg = (name: string, required = true, variadic = false): ArgSpec => ({
  name,
  kind: 'string',
  required,
  variadic,
});
const fileArg = (name: string): ArgSpec => ({ name, kind: 'file', required: true, variadic: true });

/**
 * Every command the node serves, keyed by its path under `/api/v0/`, with its arguments,
 * options (Kubo's names and defaults) and output kind. The HTTP edge reads nothing else.
 */
export const commandTable = {
  add: {
    description: 'Add files and directories (multipart) as UnixFS',
    args: [fileArg('path')],
    options: {
      quiet: bool(),
      quieter: bool(),
      silent: bool(),
      progress: bool(),
      trickle: bool(),
      'only-hash': bool(),
      'wrap-with-directory': bool(),
      chunker: str('size-262144'),
      'raw-leaves': bool(),
      'cid-version': int(),
      hash: str('sha2-256'),
      pin: bool(true),
      'pin-name': str(),
      'preserve-mode': bool(),
      'preserve-mtime': bool(),
      mode: str(),
      mtime: int(),
      'mtime-nsecs': int(),
    },
    output: ['values'],
    run: add,
  },
  cat: {
    description: 'Stream the bytes of files',
    args: [arg('ipfs-path', true, true)],
    options: { offset: int(), length: int(), progress: bool() },
    output: ['bytes'],
    run: cat,
  },
  get: {
    description: 'Download a file or directory as a tar archive',
    args: [arg('ipfs-path')],
    options: { output: str(), archive: bool(), compress: bool(), 'compression-level': int(-1) },
    output: ['bytes'],
    run: get,
  },
  ls: {
    description: 'List directory links',
    args: [arg('ipfs-path', true, true)],
    options: { headers: bool(), 'resolve-type': bool(true), size: bool(true), stream: bool() },
    output: ['value', 'values'],
    run: ls,
  },
  'block/get': {
    description: 'Raw bytes of a block',
    args: [arg('cid')],
    options: {},
    output: ['bytes'],
    run: blockGet,
  },
  'block/put': {
    description: 'Store raw blocks (multipart)',
    args: [fileArg('data')],
    options: {
      'cid-codec': str('raw'),
      mhtype: str('sha2-256'),
      mhlen: int(-1),
      pin: bool(),
      'allow-big-block': bool(),
      format: str(),
    },
    output: ['values'],
    run: blockPut,
  },
  'block/stat': {
    description: 'Key and size of a block',
    args: [arg('cid')],
    options: {},
    output: ['value'],
    run: blockStat,
  },
  'block/rm': {
    description: 'Remove unpinned blocks',
    args: [arg('cid', true, true)],
    options: { force: bool(), quiet: bool() },
    output: ['values'],
    run: blockRm,
  },
  'dag/get': {
    description: 'A DAG node or a value inside it, re-encoded',
    args: [arg('ref')],
    options: { 'output-codec': str('dag-json') },
    output: ['bytes'],
    run: dagGet,
  },
  'dag/put': {
    description: 'Store DAG nodes (multipart)',
    args: [fileArg('object data')],
    options: {
      'store-codec': str('dag-cbor'),
      'input-codec': str('dag-json'),
      pin: bool(),
      hash: str('sha2-256'),
      'allow-big-block': bool(),
    },
    output: ['values'],
    run: dagPut,
  },
  'dag/resolve': {
    description: 'Resolve a path to a block and the path left inside it',
    args: [arg('ref')],
    options: {},
    output: ['value'],
    run: dagResolve,
  },
  'dag/import': {
    description: 'Import CAR files (multipart) and pin their roots',
    args: [fileArg('path')],
    options: { 'pin-roots': bool(true), silent: bool(), stats: bool(), 'allow-big-block': bool() },
    output: ['values'],
    run: dagImport,
  },
  'dag/export': {
    description: 'Stream a DAG as a CAR file',
    args: [arg('root')],
    options: { progress: bool() },
    output: ['bytes'],
    run: dagExport,
  },
  'dag/stat': {
    description: 'Sizes and block counts of DAGs, from the stored blocks',
    args: [arg('root', true, true)],
    options: { progress: bool(true) },
    output: ['values'],
    run: dagStat,
  },
  'pin/add': {
    description: 'Pin DAGs',
    args: [arg('ipfs-path', true, true)],
    options: { recursive: bool(true), name: str(), progress: bool() },
    output: ['value'],
    run: pinAdd,
  },
  'pin/ls': {
    description: 'List pins, or the pin status of paths',
    args: [arg('ipfs-path', false, true)],
    options: { type: str('all'), quiet: bool(), stream: bool(), names: bool(), name: str() },
    output: ['value', 'values'],
    run: pinLs,
  },
  'pin/rm': {
    description: 'Remove pins',
    args: [arg('ipfs-path', true, true)],
    options: { recursive: bool(true) },
    output: ['value'],
    run: pinRm,
  },
  'pin/update': {
    description: 'Move a recursive pin to a new root',
    args: [arg('from-path'), arg('to-path')],
    options: { unpin: bool(true) },
    output: ['value'],
    run: pinUpdate,
  },
  'repo/gc': {
    description: 'Remove unpinned blocks',
    args: [],
    options: { 'stream-errors': bool(), quiet: bool(), silent: bool() },
    output: ['values'],
    run: repoGc,
  },
  'repo/stat': {
    description: 'Size and block count of the repo',
    args: [],
    options: { 'size-only': bool(), human: bool() },
    output: ['value'],
    run: repoStat,
  },
  'repo/version': {
    description: 'Repo format version',
    args: [],
    options: { quiet: bool() },
    output: ['value'],
    run: repoVersion,
  },
  refs: {
    description: 'Links out of blocks (recursively with recursive)',
    args: [arg('ipfs-path', true, true)],
    options: { format: str(), edges: bool(), unique: bool(), recursive: bool(), 'max-depth': int(-1) },
    output: ['values'],
    run: refs,
  },
  'refs/local': {
    description: 'Every block in the repo',
    args: [],
    options: {},
    output: ['values'],
    run: refsLocal,
  },
  resolve: {
    description: 'Resolve an /ipfs/ path to the last block it reaches',
    args: [arg('name')],
    options: { recursive: bool(true), 'dht-record-count': int(), 'dht-timeout': str() },
    output: ['value'],
    run: resolve,
  },
  dns: {
    description: 'DNSLink resolution (offline: always an error)',
    args: [arg('domain-name')],
    options: { recursive: bool(true) },
    output: ['value'],
    run: dns,
  },
  version: {
    description: 'Node version',
    args: [],
    options: { number: bool(), commit: bool(), repo: bool(), all: bool() },
    output: ['value'],
    run: version,
  },
  id: {
    description: 'Node identity',
    args: [arg('peerid', false)],
    options: { format: str(), 'peerid-base': str('b58mh') },
    output: ['value'],
    run: id,
  },
} satisfies Record<string, CommandSpec>;

/** A command path under `/api/v0/`. */
export type CommandName = keyof typeof commandTable;
