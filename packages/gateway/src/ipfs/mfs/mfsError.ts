import { IpfsCommandError } from '../IpfsCommandError.js';

/**
 * An MFS command's failure as Kubo answers it: HTTP 500, `Code` 0, the message as Kubo words it
 * (`file does not exist`, `cannot access a/b: Not a directory`…).
 *
 * @example
 * throw mfsError('file does not exist');
 */
export function mfsError(message: string): IpfsCommandError {
  return new IpfsCommandError(500, message, 0);
}

/** A request the command cannot read (a missing argument, an option of the wrong type): 400, Code 1. */
export function mfsRequestError(message: string): IpfsCommandError {
  return new IpfsCommandError(400, message, 1);
}

/** Kubo's message for a path that is not there (Go's `os.ErrNotExist`). */
export const NOT_EXIST = 'file does not exist';
/** Kubo's message for an entry name already taken (boxo `ErrDirExists`). */
export const ENTRY_EXISTS = 'directory already has entry by that name';
