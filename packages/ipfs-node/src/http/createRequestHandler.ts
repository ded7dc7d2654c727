import { setMaxListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { commandTable } from '../commands/table.js';
import type { CommandContext, CommandSpec, NodeFacts } from '../commands/types.js';
import { cidFormatter } from '../dag/cidFormatter.js';
import { IpfsNodeError } from '../errors.js';
import type { Repo } from '../repo/Repo.js';
import { multipartFiles } from './multipartFiles.js';
import { parseDuration, parseOptions } from './parseOptions.js';
import { writeError, writeText } from './writeError.js';
import { writeResult } from './writeResult.js';

/** What the HTTP handler needs. */
export interface RequestHandlerDeps {
  repo: Repo;
  facts: NodeFacts;
  /** Reset the connection (after the trailer) when a stream fails mid-way; see `writeResult`. */
  resetOnStreamError: boolean;
  /** Called with unexpected failures (never with request data). */
  onInternalError?: (err: unknown) => void;
}

const PREFIX = '/api/v0/';

/**
 * The Kubo RPC HTTP edge: method and path checks (405, 404 text), argument and option parsing
 * (400 text), then the command from the command table with Kubo's response framing.
 */
export function createRequestHandler(deps: RequestHandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((err: unknown) => {
      deps.onInternalError?.(err);
      if (!res.headersSent) writeError(res, err);
      else res.destroy();
    });
  };
}

async function handle(deps: RequestHandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  res.on('finish', () => {
    // answered before the whole body was read (an early error): discard the rest, keeping the
    // connection usable (destroying it could reset the client before it reads the answer)
    if (!req.complete) req.resume();
  });
  if (!url.pathname.startsWith(PREFIX)) {
    writeText(res, 404, '404 page not found');
    return;
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(200, { Allow: 'OPTIONS, POST', 'Content-Length': '0' });
    res.end();
    return;
  }
  if (req.method !== 'POST') {
    writeText(res, 405, '405 - Method Not Allowed', { Allow: 'OPTIONS, POST' });
    return;
  }
  const found = findCommand(url.pathname.slice(PREFIX.length));
  if (found === undefined) {
    writeText(res, 404, '404 page not found');
    return;
  }
  const { spec, pathArg } = found;
  const controller = new AbortController();
  // parallel block reads and writes each listen to the request's signal
  setMaxListeners(256, controller.signal);
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new DOMException('client went away', 'AbortError'));
  });
  let ctx: CommandContext;
  try {
    ctx = buildContext(deps, spec, url, pathArg, req, controller.signal);
  } catch (err) {
    writeError(res, err);
    return;
  }
  const timeout = ctx.options.string('timeout');
  let timer: NodeJS.Timeout | undefined;
  if (timeout !== undefined) {
    const ms = parseDuration(timeout);
    if (ms === undefined) {
      writeText(res, 400, `time: invalid duration "${timeout}"`);
      return;
    }
    timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), ms);
  }
  try {
    const result = await spec.run(ctx);
    await writeResult(res, result, { resetOnStreamError: deps.resetOnStreamError });
  } catch (err) {
    if (res.headersSent) {
      if (!res.writableEnded) res.destroy();
      return;
    }
    if (res.destroyed) return;
    writeError(res, err);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function findCommand(path: string): { spec: CommandSpec; pathArg: string | undefined } | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  const name = segments.join('/');
  const table: Record<string, CommandSpec> = commandTable;
  const direct = Object.hasOwn(table, name) ? table[name] : undefined;
  if (direct !== undefined) return { spec: direct, pathArg: undefined };
  // Kubo treats a trailing segment that is not a subcommand as the first argument: /cat/<cid>
  const parent = segments.slice(0, -1).join('/');
  const spec = Object.hasOwn(table, parent) ? table[parent] : undefined;
  if (spec !== undefined && segments.length > 1) return { spec, pathArg: segments.at(-1) };
  return undefined;
}

function buildContext(
  deps: RequestHandlerDeps,
  spec: CommandSpec,
  url: URL,
  pathArg: string | undefined,
  req: IncomingMessage,
  signal: AbortSignal,
): CommandContext {
  const args = [...(pathArg === undefined ? [] : [pathArg]), ...url.searchParams.getAll('arg')];
  const stringArgs = spec.args.filter((a) => a.kind === 'string');
  const required = stringArgs.filter((a) => a.required);
  if (args.length < required.length) {
    throw new IpfsNodeError('request', `argument "${required[args.length]!.name}" is required`);
  }
  const variadic = stringArgs.some((a) => a.variadic);
  if (!variadic && args.length > stringArgs.length) {
    throw new IpfsNodeError('request', `expected ${stringArgs.length} argument(s), got ${args.length}`);
  }
  const fileArg = spec.args.find((a) => a.kind === 'file');
  const multipart = (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
  if (fileArg?.required === true && !multipart) {
    throw new IpfsNodeError('request', `file argument '${fileArg.name}' is required`);
  }
  const options = parseOptions(url.searchParams, spec.options);
  const cidString = cidFormatter(options);
  let consumed = false;
  return {
    repo: deps.repo,
    node: deps.facts,
    args,
    options,
    cidString,
    request: req,
    signal,
    files: () => {
      if (consumed) throw new Error('request body already consumed');
      consumed = true;
      return multipart ? multipartFiles(req, signal) : emptyFiles();
    },
  };
}

async function* emptyFiles(): AsyncGenerator<never> {}
