import type { IncomingMessage, ServerResponse } from 'node:http';
import { DatabaseUnavailableError } from '../../store/DatabaseUnavailableError.js';
import { wireError } from '../../wire/wireError.js';
import type { ServedMeter } from '../createServedMeter.js';
import type { IpfsCommandContext } from '../IpfsCommandContext.js';
import { IpfsCommandError } from '../IpfsCommandError.js';
import { discardRequestBody } from '../writeIpfsError.js';
import type { Mfs } from './createMfs.js';
import { filesChcid } from './filesChcid.js';
import { filesChmod } from './filesChmod.js';
import { filesCp } from './filesCp.js';
import { filesFlush } from './filesFlush.js';
import { filesLs } from './filesLs.js';
import { filesMkdir } from './filesMkdir.js';
import { filesMv } from './filesMv.js';
import { filesRead } from './filesRead.js';
import type { FilesRequest } from './FilesRequest.js';
import { filesRm } from './filesRm.js';
import { filesStat } from './filesStat.js';
import { filesTouch } from './filesTouch.js';
import { filesWrite } from './filesWrite.js';

/** Every MFS command the gateway answers, by its path under `/api/v0/`. */
const FILES_COMMANDS = {
  'files/chcid': filesChcid,
  'files/chmod': filesChmod,
  'files/cp': filesCp,
  'files/flush': filesFlush,
  'files/ls': filesLs,
  'files/mkdir': filesMkdir,
  'files/mv': filesMv,
  'files/read': filesRead,
  'files/rm': filesRm,
  'files/stat': filesStat,
  'files/touch': filesTouch,
  'files/write': filesWrite,
} as const satisfies Record<string, (r: FilesRequest) => Promise<void>>;

/** An MFS command the gateway answers. */
export type FilesCommandName = keyof typeof FILES_COMMANDS;

/** True for the `files/*` commands the gateway answers itself (for each key, its own MFS). */
export function isFilesCommand(name: string): name is FilesCommandName {
  return Object.hasOwn(FILES_COMMANDS, name);
}

/**
 * Serves one `files/*` command of an authenticated key over the key's own MFS ({@link Mfs}):
 * files/read and files/ls are content (refused up front once the key's served bytes for the day
 * are used up, then metered), every other command but files/write takes no body. Errors are
 * thrown before the answer starts, for the route to write as Kubo JSON; the database away (the
 * key's root cannot be read or set) is the gateway's 503 with `Retry-After`, nothing changed.
 *
 * @example
 * await serveFilesCommand('files/ls', key, req, res, new URLSearchParams({ arg: '/' }), ctx, meter);
 */
export async function serveFilesCommand(
  name: FilesCommandName,
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
  params: URLSearchParams,
  ctx: IpfsCommandContext,
  meter?: ServedMeter,
): Promise<void> {
  const mfs: Mfs | undefined = ctx.mfs;
  if (mfs === undefined) throw new IpfsCommandError(501, 'MFS is not available on this gateway', 0);
  if (name !== 'files/write') discardRequestBody(req);
  const content = name === 'files/read' || name === 'files/ls';
  if (content && meter !== undefined) {
    const refusal = await meter.refuseBefore();
    if (refusal !== undefined) throw refusal;
  }
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    await FILES_COMMANDS[name]({
      key,
      req,
      res,
      params,
      mfs,
      ctx,
      meter: content ? meter : undefined,
      signal: controller.signal,
    });
  } catch (err) {
    // the key's MFS root is in the database: while it is away, the gateway's 503 (Retry-After) in Kubo's shape
    if (!(err instanceof DatabaseUnavailableError)) throw err;
    const answer = wireError(err);
    throw new IpfsCommandError(answer.status, `${answer.error.message}: database-unavailable`, 0, {
      headers: { ...answer.headers },
    });
  }
}
